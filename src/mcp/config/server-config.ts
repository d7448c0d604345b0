import * as v from "valibot";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";

/**
 * The longest timeout a timer can hold: setTimeout takes a signed 32-bit count of milliseconds and
 * fires at once for anything larger, so a longer one would time out immediately (about 24.8 days).
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const NonEmpty = (field: string) => v.pipe(v.string(`"${field}" must be a string`), v.nonEmpty(`"${field}" is empty`));
const Timeout = v.pipe(
  v.number('"timeout" must be a number of milliseconds'),
  v.integer('"timeout" must be a whole number of milliseconds'),
  v.minValue(1, '"timeout" must be at least 1 ms'),
  v.maxValue(MAX_TIMEOUT_MS, `"timeout" must be at most ${MAX_TIMEOUT_MS} ms (about 24 days)`),
);
const StringMap = (field: string) =>
  v.record(v.string(), v.string(`every value of "${field}" must be a string`), `"${field}" must be an object of strings`);

/** Fields every entry may carry, whatever its transport. */
const Common = {
  timeout: v.optional(Timeout),
  disabled: v.optional(v.boolean('"disabled" must be true or false')),
  includeTools: v.optional(v.array(v.string(), '"includeTools" must be a list of tool names')),
  excludeTools: v.optional(v.array(v.string(), '"excludeTools" must be a list of tool names')),
};

export const StdioServerConfig = v.looseObject({
  type: v.literal("stdio"),
  command: NonEmpty("command"),
  args: v.optional(v.array(v.string('every item of "args" must be a string'), '"args" must be a list of strings'), []),
  env: v.optional(StringMap("env"), {}),
  cwd: v.optional(NonEmpty("cwd")),
  ...Common,
});
export type StdioServerConfig = v.InferOutput<typeof StdioServerConfig>;

export const HttpServerConfig = v.looseObject({
  type: v.literal("http"),
  url: v.pipe(NonEmpty("url"), v.url('"url" is not a valid URL')),
  headers: v.optional(StringMap("headers"), {}),
  ...Common,
});
export type HttpServerConfig = v.InferOutput<typeof HttpServerConfig>;

/** One server entry after validation and `${VAR}` expansion. */
export const ServerConfig = v.variant("type", [StdioServerConfig, HttpServerConfig], (issue) =>
  `unknown "type" ${JSON.stringify(issue.input)}: use "stdio" or "http"`,
);
export type ServerConfig = v.InferOutput<typeof ServerConfig>;

/**
 * What `mcp list` shows of a server's transport: `stdio: <command line>` or `http: <url>`, as the
 * entry was written (`raw`), before `${VAR}` expansion: an expanded variable may hold a secret. A
 * URL that carries no `${VAR}` may carry a literal one: its userinfo and query values are masked.
 */
export function describeServer(config: ServerConfig, raw?: unknown): string {
  const written = isPlainObject(raw) ? raw : {};
  if (config.type === "http") {
    const url = typeof written.url === "string" ? written.url : config.url;
    return `http: ${url.includes("${") ? url : redactUrl(url)}`;
  }
  const command = typeof written.command === "string" ? written.command : config.command;
  const args = Array.isArray(written.args) ? written.args.map(String) : config.args;
  return `stdio: ${[command, ...args].join(" ")}`;
}

/** Where an entry came from: `mcp list` and `mcp get` show it. */
export type ConfigScope = "user" | "project" | "flag" | "ad-hoc";

/**
 * Why a configured entry may not start although it is valid: a project entry (`.mcp.json`, which can
 * arrive with a cloned repository) that the user has not approved in this form, or has refused.
 */
export type EntryTrust = "needs-approval" | "denied";

interface EntryBase {
  name: string;
  scope: ConfigScope;
  source: string;
  /** The entry as written in its file, before `${VAR}` expansion: approvals hash it, `mcp get` shows it. */
  raw?: unknown;
  /** Absent: the entry may start (user and flag entries, approved project entries). */
  trust?: EntryTrust;
}

/** A configured server: its entry, or the reason its entry is unusable. */
export type ServerEntry = (EntryBase & { ok: true; config: ServerConfig }) | (EntryBase & { ok: false; error: string });
