import { resolve } from "node:path";
import { CliError } from "../../terminal/cli-error.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { MAX_TIMEOUT_MS } from "../../mcp/config/server-config.ts";
import { isVariableOnly } from "../../mcp/config/launch-summary.ts";
import { parseScope, type WritableScope } from "./config-scope.ts";

export interface AddRequest {
  name: string;
  scope: WritableScope;
  /** The entry as it will be written, in Claude Code's `.mcp.json` form. */
  entry: Record<string, unknown>;
}

const USAGE = [
  "usage: cat-code mcp add <name> [-e KEY=VALUE]… [--cwd <dir>] [--timeout <ms>] [--scope user|project] -- <command> [args…]",
  "       cat-code mcp add --transport http <name> <url> [-H 'Key: Value']… [--timeout <ms>] [--scope user|project]",
  "            [--client-id <id>] [--client-secret '${VAR}'] [--callback-port <port>] [--oauth-scope 'a b']…",
].join("\n");

/** Flags that take a value; `-e` and `-H` may repeat, which citty cannot express, hence this parser. */
const VALUE_FLAGS: Record<string, string> = {
  transport: "transport",
  t: "transport",
  scope: "scope",
  s: "scope",
  env: "env",
  e: "env",
  header: "header",
  H: "header",
  cwd: "cwd",
  timeout: "timeout",
  "client-id": "client-id",
  "client-secret": "client-secret",
  "callback-port": "callback-port",
  "oauth-scope": "oauth-scope",
};
/** The flags that write an http entry's `oauth` block. */
const OAUTH_FLAGS = ["client-id", "client-secret", "callback-port", "oauth-scope"];
const BOOLEAN_FLAGS = new Set(["verbose"]);

/**
 * `mcp add`'s command line. Everything after `--` belongs to the server's command, untouched, so a
 * server's own `-y` or `--port` never reads as one of ours.
 */
export function parseAddArguments(rawArgs: string[]): AddRequest {
  const values: Record<string, string[]> = {};
  const positionals: string[] = [];
  const separator = rawArgs.indexOf("--");
  const ours = separator === -1 ? rawArgs : rawArgs.slice(0, separator);
  const commandWords = separator === -1 ? [] : rawArgs.slice(separator + 1);
  for (let i = 0; i < ours.length; i++) {
    const arg = ours[i] as string;
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const [flag = "", inline] = splitFlag(arg);
    if (BOOLEAN_FLAGS.has(flag)) continue;
    const key = VALUE_FLAGS[flag];
    if (!key) {
      const known = [...new Set(Object.keys(VALUE_FLAGS).filter((f) => f.length > 1))].map((f) => `--${f}`);
      throw CliError.usage(
        `${unknownNameMessage("option", arg.split("=")[0] ?? arg, known)} A server's own options go after --: cat-code mcp add <name> -- <command> [args…]`,
      );
    }
    const value = inline ?? ours[++i];
    if (value === undefined) throw CliError.usage(`${arg} needs a value\n${USAGE}`);
    (values[key] ??= []).push(value);
  }
  const single = (key: string): string | undefined => {
    const given = values[key] ?? [];
    if (given.length > 1) throw CliError.usage(`--${key} is given ${given.length} times; give it once`);
    return given[0];
  };

  const transport = single("transport") ?? "stdio";
  const scopeText = single("scope");
  // Claude Code's --scope says which file; someone signing in may well mean the OAuth kind.
  if (scopeText !== undefined && scopeText !== "user" && scopeText !== "project" && transport === "http") {
    throw CliError.usage(`--scope must be user or project (the file the entry goes to), not '${scopeText}'; the scopes to ask a server for go in --oauth-scope '${scopeText}'`);
  }
  const scope = parseScope(scopeText);
  const [name, ...rest] = positionals;
  if (name === undefined) throw CliError.usage(USAGE);
  const timeout = parseTimeout(single("timeout"));
  const env = pairs(values.env ?? [], "=", "-e", "KEY=VALUE");
  const headers = pairs(values.header ?? [], ":", "-H", "'Key: Value'");
  const cwd = single("cwd");

  if (transport === "http") {
    const [url, ...extra] = [...rest, ...commandWords];
    if (url === undefined || extra.length > 0) throw CliError.usage(`an http server takes one url\n${USAGE}`);
    if (values.env || cwd !== undefined) throw CliError.usage("-e and --cwd are for stdio servers; an http server takes -H 'Key: Value'");
    const oauth = compact({
      clientId: single("client-id"),
      clientSecret: single("client-secret"),
      scopes: parseScopes(values["oauth-scope"] ?? []),
      callbackPort: parsePort(single("callback-port")),
    });
    checkOAuth(oauth, scope);
    return { name, scope, entry: compact({ type: "http", url, headers, timeout, oauth }) };
  }
  if (transport === "sse") throw CliError.usage("the deprecated HTTP+SSE transport is not supported; use --transport http");
  if (transport !== "stdio") throw CliError.usage(`--transport must be stdio or http, not '${transport}'`);
  const [command, ...args] = [...rest, ...commandWords];
  if (command === undefined) throw CliError.usage(`a stdio server needs a command after --\n${USAGE}`);
  if (values.header) throw CliError.usage("-H is for http servers; a stdio server takes -e KEY=VALUE");
  const oauthFlags = OAUTH_FLAGS.filter((flag) => values[flag]);
  if (oauthFlags.length > 0) {
    throw CliError.usage(`${oauthFlags.map((flag) => `--${flag}`).join(", ")}: OAuth is for http servers (--transport http <name> <url>); a stdio server takes -e KEY=VALUE`);
  }
  // A relative --cwd in the user's file would depend on where cat-code happens to start.
  const dir = cwd !== undefined && scope === "user" ? resolve(cwd) : cwd;
  return { name, scope, entry: compact({ type: "stdio", command, args, env, cwd: dir, timeout }) };
}

function splitFlag(arg: string): [string, string | undefined] {
  const bare = arg.replace(/^--?/, "");
  const equals = bare.indexOf("=");
  // `-e KEY=VALUE` is a short flag with a separate value; only `--env=KEY=VALUE` is inline.
  if (equals === -1 || !arg.startsWith("--")) return [bare, undefined];
  return [bare.slice(0, equals), bare.slice(equals + 1)];
}

function pairs(items: string[], separator: string, flag: string, form: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at > 0 ? item.slice(0, at).trim() : "";
    if (!key) throw CliError.usage(`${flag} expects ${form}, got '${item}'`);
    if (separator === "=" && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw CliError.usage(`${flag} ${item}: '${key}' is not a variable name`);
    if (key in result) throw CliError.usage(`${flag} ${key} is given twice`);
    result[key] = separator === ":" ? item.slice(at + 1).trim() : item.slice(at + 1);
  }
  return result;
}

function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw CliError.usage(`--timeout must be a whole number of milliseconds, got '${text}'`);
  }
  if (ms > MAX_TIMEOUT_MS) throw CliError.usage(`--timeout must be at most ${MAX_TIMEOUT_MS} ms (about 24 days), got ${text}; nothing was written`);
  return ms;
}

/** `--oauth-scope` repeats, and each may hold several scopes separated by spaces, as OAuth writes them. */
function parseScopes(given: string[]): string[] {
  const scopes = given.flatMap((text) => text.split(/\s+/)).filter((scope) => scope !== "");
  if (given.length > 0 && scopes.length === 0) throw CliError.usage("--oauth-scope needs at least one scope name, like --oauth-scope 'read write'");
  return [...new Set(scopes)];
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw CliError.usage(`--callback-port must be a port number from 1 to 65535, got '${text}'`);
  return port;
}

/**
 * A client secret belongs to a client id. Typed as it is, it would also land in a project's
 * `.mcp.json`, which is shared with everyone who clones the project: there it must be a `${VAR}`
 * that each user sets.
 */
function checkOAuth(oauth: Record<string, unknown>, scope: WritableScope): void {
  if (oauth.clientSecret === undefined) return;
  if (oauth.clientId === undefined) throw CliError.usage("--client-secret needs --client-id: the secret belongs to the client id the server's owner gave you");
  if (scope === "project" && !isVariableOnly(oauth.clientSecret)) {
    throw CliError.usage("--client-secret with --scope project would write the secret into .mcp.json, which the project shares: pass it as '${VARIABLE}' and set the variable; nothing was written");
  }
}

/** Leaves out what was not given: no empty `args`, `env` or `headers` in the file. */
function compact(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entry).filter(([, value]) => {
      if (value === undefined) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
      return true;
    }),
  );
}
