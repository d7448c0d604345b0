import { defineCommand, type ArgsDef } from "citty";
import { log } from "../../log.ts";
import { loadConfiguredServers } from "../../mcp/config/configured-servers.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { CredentialsStore, type ServerStatus } from "../../mcp/index.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rejectUnknownFlags } from "../known-flags.ts";
import { printResult } from "../../terminal/output.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";
import { redactStatus, revisionText, statusToJson } from "../../terminal/render-status.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { alignColumns, sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { serverEnvironment } from "../../system/own-secrets.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { launchRows } from "../../terminal/render-launch.ts";
import { maskedOAuth, MASK, visible } from "../../mcp/config/launch-summary.ts";
import { openPool } from "./open-pool.ts";
import { loadServerEntries } from "./server-selection.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { clockTime } from "../../terminal/clock-time.ts";

const getArgs = {
  name: { type: "positional", required: false, description: "The server's name" },
  json: { type: "boolean", description: "Print one JSON document" },
  "mcp-config": { type: "string", description: "Read servers from this file instead of ~/.cat-code/mcp.json and ./.mcp.json", valueHint: "file" },
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "get", description: "Show one server's entry (a project entry as written, your own with env and header values masked), where it comes from, and its live state" },
  args: getArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, getArgs);
    if (args.name === undefined) throw CliError.usage("usage: cat-code mcp get <name>");
    const { entries, shadowed } = loadEntries(args["mcp-config"]);
    const entry = entries.find((e) => e.name === args.name);
    if (!entry) throw CliError.usage(unknownNameMessage("server", args.name, entries.map((e) => e.name)));
    const overrides = shadowed.find((e) => e.name === entry.name)?.source;

    // A project server that is not approved stays as it is: the pool starts nothing for it.
    const pool = openPool([entry], { watchChanges: false });
    let status: ServerStatus;
    try {
      await pool.connectAll();
      status = redactStatus(pool.status()[0] as ServerStatus, [entry]);
    } finally {
      await pool.closeAll();
    }

    const signIn = signInState(entry);
    if (args.json) {
      const raw = isPlainObject(entry.raw) ? entry.raw : {};
      const json = {
        name: entry.name,
        scope: entry.scope,
        file: entry.source,
        overrides: overrides ?? null,
        entry: maskedEntry(entry),
        withheldEnv: withheldVariables(entry),
        oauth: (entry.scope === "project" ? raw.oauth : maskedOAuth(raw.oauth)) ?? null,
        signedIn: signIn.signedIn,
        status: statusToJson(status),
      };
      await printResult(jsonForTerminal(json, 2));
      return;
    }
    await printResult(renderEntry(entry, status, overrides, signIn.row).join("\n"));
  },
});

function loadEntries(flagFile: string | undefined): { entries: ServerEntry[]; shadowed: ServerEntry[] } {
  if (flagFile !== undefined) return { entries: loadServerEntries({ "mcp-config": flagFile }), shadowed: [] };
  const loaded = loadConfiguredServers();
  for (const warning of loaded.warnings) log.warn(warning);
  return { entries: loaded.servers, shadowed: loaded.shadowed };
}

function renderEntry(entry: ServerEntry, status: ServerStatus, overrides: string | undefined, tokensRow: [string, string] | undefined): string[] {
  const rows: string[][] = [
    ["scope:", entry.scope],
    ["file:", entry.source],
  ];
  if (overrides) rows.push(["overrides:", `the user entry in ${overrides}`]);
  const raw = isPlainObject(entry.raw) ? entry.raw : {};
  if (typeof raw.type === "string") rows.push(["type:", raw.type]);
  // What it runs or sends (values as written for a project entry, masked for the user's own), then the rest.
  rows.push(...launchRows(entry));
  const withheld = withheldVariables(entry);
  if (withheld.length > 0) rows.push(["withheld:", `${withheld.join(", ")} (not passed to the server; name one in "env" to pass it)`]);
  if (!isPlainObject(entry.raw)) rows.push(["entry:", JSON.stringify(entry.raw) ?? ""]);
  for (const [key, value] of Object.entries(raw)) {
    if (!LAUNCH_FIELDS.has(key)) rows.push([`${key}:`, typeof value === "string" ? value : (JSON.stringify(value) ?? "")]);
  }
  // Whether tokens are kept (never the tokens).
  if (tokensRow) rows.push(tokensRow);
  rows.push(...statusRows(entry, status));
  const lines = alignColumns(rows.map(([label = "", value = ""]) => [label, sanitizeForTerminal(value)]));
  return [entry.name, ...lines.map((line) => `  ${line}`)];
}

/** The fields shown first: the type, then what launchRows shows. */
const LAUNCH_FIELDS = new Set(["type", "command", "args", "cwd", "env", "url", "headers", "oauth"]);

/** The well-known secrets of this environment that a stdio server of this entry would not get. */
function withheldVariables(entry: ServerEntry): string[] {
  if (!entry.ok || entry.config.type !== "stdio") return [];
  return serverEnvironment(entry.config.env).withheld;
}

function statusRows(entry: ServerEntry, status: ServerStatus): string[][] {
  const state = status.state.toUpperCase();
  switch (status.state) {
    case "connected": {
      const info = status.serverInfo;
      return [
        ["status:", `${state}  ${status.tools.length} tool(s)`],
        ["server:", `${info ? `${info.name} ${info.version}` : "(no serverInfo)"}  (protocol ${revisionText(status)})`],
        ["tools:", status.tools.map((tool) => tool.name).join(", ") || "(none)"],
      ];
    }
    case "failed":
      return [
        ["status:", `${state}  ${status.reason.split("\n")[0]}`],
        ...[...status.reason.split("\n").slice(1), ...status.stderr.map((line) => `stderr: ${line}`)].map((line) => ["", line]),
      ];
    case "invalid":
      return [["status:", `${state}  ${status.reason}`]];
    case "needs-approval":
      return [["status:", `${state}  not started; to allow it: cat-code mcp approve ${entry.name}`]];
    case "denied":
      return [["status:", `${state}  not started; to allow it: cat-code mcp approve ${entry.name}`]];
    default:
      return [["status:", state]];
  }
}

/**
 * `mcp get --json`'s entry: a project entry as written (its values decide what runs, and are not
 * the user's secrets); the user's own with every env and header value replaced by `***`, where
 * tokens live, and a URL without `${VAR}` through redactUrl. Keys stay, so the user still sees
 * which variables and headers are set. The same rule as launchSummary's: the user's `oauth` block
 * has its secret masked (maskedOAuth), a project's is shown as written.
 */
function maskedEntry(entry: ServerEntry): unknown {
  const raw = entry.raw;
  if (!isPlainObject(raw)) return raw;
  // A project's entry is shown whole, its oauth block too: what it sends is what is approved.
  if (entry.scope === "project") return raw;
  const withOAuth = raw.oauth === undefined ? raw : { ...raw, oauth: maskedOAuth(raw.oauth) };
  const masked: Record<string, unknown> = { ...withOAuth };
  for (const field of ["env", "headers"]) {
    const value = masked[field];
    if (value === undefined) continue;
    masked[field] = isPlainObject(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, MASK])) : MASK;
  }
  if (typeof masked.url === "string" && !masked.url.includes("${")) masked.url = redactUrl(masked.url);
  return masked;
}

/**
 * Whether the store holds tokens for the entry's name and its current url: the only tokens the
 * entry's server would be sent. Tokens are never shown, only that they exist and what they are for.
 */
function signInState(entry: ServerEntry, store = new CredentialsStore()): { signedIn: boolean; row?: [string, string] } {
  if (!entry.ok || entry.config.type !== "http") return { signedIn: false };
  const tokens = store.tokens({ server: entry.name, url: entry.config.url });
  if (tokens) {
    const parts = [`issuer ${redactUrl(tokens.issuer)}`];
    if (tokens.scopes?.length) parts.push(`scopes ${tokens.scopes.join(" ")}`);
    // On the user's own clock, as every other message that says when a token expires.
    if (tokens.expiresAt !== undefined) parts.push(`${tokens.expiresAt <= Date.now() ? "expired" : "expires"} ${clockTime(tokens.expiresAt)}`);
    if (tokens.refreshToken !== undefined) parts.push("refreshable");
    return { signedIn: true, row: ["tokens:", `stored (${visible(parts.join(", "))})`] };
  }
  if (store.hasTokens(entry.name)) {
    return { signedIn: false, row: ["tokens:", `none for this url (those of an earlier url stay until: cat-code mcp logout ${entry.name})`] };
  }
  return { signedIn: false, row: ["tokens:", "none"] };
}
