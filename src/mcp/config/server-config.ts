import * as v from "valibot";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { stringsObject } from "../../system/whole-object.ts";

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
/** How long the connection keeper holds a server without use, in seconds; 0: never through the keeper. */
const KeepAlive = v.pipe(
  v.number('"keepAlive" must be a number of seconds'),
  v.integer('"keepAlive" must be a whole number of seconds'),
  v.minValue(0, '"keepAlive" must be 0 (no keeper) or more seconds'),
  v.maxValue(Math.floor(MAX_TIMEOUT_MS / 1000), `"keepAlive" must be at most ${Math.floor(MAX_TIMEOUT_MS / 1000)} seconds (about 24 days)`),
);
const StringMap = (field: string) => stringsObject(`"${field}" must be an object of strings`, `every value of "${field}" must be a string`);

/** Fields every entry may carry, whatever its transport. */
const Common = {
  timeout: v.optional(Timeout),
  keepAlive: v.optional(KeepAlive),
  disabled: v.optional(v.boolean('"disabled" must be true or false')),
  includeTools: v.optional(v.array(v.string(), '"includeTools" must be a list of tool names')),
  excludeTools: v.optional(v.array(v.string(), '"excludeTools" must be a list of tool names')),
};

/** RFC 6749 §3.3: a scope is a run of visible ASCII other than `"` and `\`; a list joins them with spaces. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * How cat-code signs in to an http server that asks for OAuth. Everything is optional: without a
 * `clientId` the client registers itself (or uses its Client ID Metadata Document). Unknown fields
 * are kept, as in the entry itself, so another tool's `.mcp.json` still loads.
 */
export const OAuthConfig = v.pipe(
  v.looseObject(
    {
      clientId: v.optional(NonEmpty("oauth.clientId")),
      clientSecret: v.optional(NonEmpty("oauth.clientSecret")),
      scopes: v.optional(
        v.array(
          v.pipe(
            v.string('every item of "oauth.scopes" must be a string'),
            v.regex(SCOPE_TOKEN, 'every item of "oauth.scopes" must be one scope name without spaces or quotes, like ["read", "write"]'),
          ),
          '"oauth.scopes" must be a list of scope names, like ["read", "write"]',
        ),
      ),
      callbackPort: v.optional(
        v.pipe(
          v.number('"oauth.callbackPort" must be a port number from 1 to 65535'),
          v.integer('"oauth.callbackPort" must be a whole port number from 1 to 65535'),
          v.minValue(1, '"oauth.callbackPort" must be a port number from 1 to 65535'),
          v.maxValue(65535, '"oauth.callbackPort" must be a port number from 1 to 65535'),
        ),
      ),
      grant: v.optional(
        v.picklist(["authorization_code", "client_credentials"], '"oauth.grant" must be "authorization_code" (the default: sign in with a browser) or "client_credentials"'),
      ),
      clientMetadataUrl: v.optional(
        v.pipe(
          NonEmpty("oauth.clientMetadataUrl"),
          v.check(isClientMetadataUrl, '"oauth.clientMetadataUrl" must be an https URL with a path, like https://example.com/oauth/client.json'),
        ),
      ),
    },
    '"oauth" must be an object, like {"clientId": "…", "clientSecret": "${SECRET}"}',
  ),
  v.check(
    (oauth) => oauth.grant !== "client_credentials" || (oauth.clientId !== undefined && oauth.clientSecret !== undefined),
    '"oauth.grant": "client_credentials" needs "oauth.clientId" and "oauth.clientSecret"; add both (the secret as "${VARIABLE}")',
  ),
);
export type OAuthConfig = v.InferOutput<typeof OAuthConfig>;

/** A Client ID Metadata Document's URL is the client id itself: https, with a path naming the document. */
function isClientMetadataUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === "https:" && url.pathname !== "/" && url.username === "" && url.password === "" && url.hash === "";
}

export const StdioServerConfig = v.looseObject({
  type: v.literal("stdio"),
  command: NonEmpty("command"),
  args: v.optional(v.array(v.string('every item of "args" must be a string'), '"args" must be a list of strings'), []),
  env: v.optional(StringMap("env"), {}),
  cwd: v.optional(NonEmpty("cwd")),
  // A stdio server gets no HTTP requests to sign: an oauth block there is a mistake, not a no-op.
  oauth: v.optional(v.never('"oauth" is for http servers; a stdio server takes its credentials through "env"')),
  ...Common,
});
export type StdioServerConfig = v.InferOutput<typeof StdioServerConfig>;

export const HttpServerConfig = v.looseObject({
  type: v.literal("http"),
  url: v.pipe(NonEmpty("url"), v.url('"url" is not a valid URL')),
  headers: v.optional(StringMap("headers"), {}),
  oauth: v.optional(OAuthConfig),
  ...Common,
});
export type HttpServerConfig = v.InferOutput<typeof HttpServerConfig>;

/** Whether an HTTP entry's own `headers` authorize it: that token is the user's, never replaced by an OAuth one. */
export function setsOwnAuthorization(config: HttpServerConfig): boolean {
  return Object.keys(config.headers).some((name) => name.toLowerCase() === "authorization");
}

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
