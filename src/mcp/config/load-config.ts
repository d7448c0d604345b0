import { join } from "node:path";
import type { ParseError } from "jsonc-parser";
import * as v from "valibot";
import { isPlainObject } from "../../system/plain-object.ts";
import { catCodeHome } from "../../config/app-home.ts";
import { ConfigError } from "../../config/config-error.ts";
import { readConfigText } from "../../config/config-file-text.ts";
import { describeParseError, lineAndColumn } from "../../config/json-parse-error.ts";
import { jsonc } from "../../config/jsonc.ts";
import { expandVariables } from "./env-expansion.ts";
import { ownSecretRefusal, variableUses } from "./entry-variables.ts";
import { isOwnSecret } from "../../system/own-secrets.ts";
import { ServerConfig, type ConfigScope, type ServerEntry } from "./server-config.ts";

export function userConfigPath(env: Record<string, string | undefined> = process.env): string {
  return join(catCodeHome(env), "mcp.json");
}

export interface LoadedConfig {
  servers: ServerEntry[];
  /** One line per problem with the file itself; each names the file. The program still starts. */
  warnings: string[];
}

/**
 * A name that cannot be a key of a JavaScript object without changing the object's prototype:
 * refused, rather than have the entry vanish or shadow another.
 */
export const RESERVED_SERVER_NAMES = new Set(["__proto__"]);

/**
 * Reads one mcp.json. Fail-open: no file means no servers; a corrupt file gives one warning and no
 * servers; an invalid entry fails only that server, with a reason that names the field.
 * With `required`, a missing file is a ConfigError "missing-file" (a path named on the command line).
 * A file that is not a regular file, or is larger than MAX_CONFIG_BYTES, is one warning too.
 */
export function readConfigFile(
  path: string,
  scope: ConfigScope,
  options: { required?: boolean; env?: Record<string, string | undefined> } = {},
): LoadedConfig {
  let read;
  try {
    read = readConfigText(path);
  } catch (error) {
    if (error instanceof ConfigError) return { servers: [], warnings: [`${error.message}; no MCP servers loaded from it`] };
    throw error;
  }
  if (read === undefined) {
    if (options.required) throw new ConfigError(`config file not found: ${path}`, "missing-file", path);
    return { servers: [], warnings: [] };
  }
  return parseConfigText(read.text, path, scope, options.env ?? process.env);
}

export function parseConfigText(
  text: string,
  path: string,
  scope: ConfigScope,
  env: Record<string, string | undefined>,
): LoadedConfig {
  // JSON.parse, not jsonc's value: jsonc assigns `obj[key] = …`, so a key "__proto__" would replace
  // the object's prototype instead of becoming an entry. What JSON.parse takes is strict JSON, in
  // which jsonc-parser finds no error: only a file it refuses needs jsonc-parser (see jsonc.ts).
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { servers: [], warnings: [notJsonWarning(text, path, error as Error)] };
  }
  if (!isPlainObject(document)) {
    return { servers: [], warnings: [`${path}: the top level must be an object like {"mcpServers": {...}}; no MCP servers loaded from it`] };
  }
  const servers = document.mcpServers;
  if (servers === undefined) return { servers: [], warnings: [] };
  if (!isPlainObject(servers)) {
    return { servers: [], warnings: [`${path}: "mcpServers" must be an object of named entries; no MCP servers loaded from it`] };
  }
  return {
    servers: Object.entries(servers).map(([name, raw]) => parseServerEntry(name, raw, scope, path, env)),
    warnings: [],
  };
}

/** Why a text JSON.parse refused is no config: where jsonc-parser finds the first error, in its words. */
function notJsonWarning(text: string, path: string, error: Error): string {
  const errors: ParseError[] = [];
  jsonc().parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const firstError = errors[0];
  if (firstError) {
    const { line, column } = lineAndColumn(text, firstError.offset);
    const what = describeParseError(jsonc().printParseErrorCode(firstError.error));
    return `${path} is not valid JSON: ${what} at line ${line}, column ${column}; no MCP servers loaded from it`;
  }
  if (text.trim() === "") return `${path} is empty; no MCP servers loaded from it`;
  return `${path} is not valid JSON: ${error.message}; no MCP servers loaded from it`;
}

/** Validates one entry and expands its `${VAR}`s. Never throws: a bad entry becomes `ok: false`. */
export function parseServerEntry(
  name: string,
  raw: unknown,
  scope: ConfigScope,
  source: string,
  env: Record<string, string | undefined>,
): ServerEntry {
  const fail = (error: string): ServerEntry => ({ name, scope, source, raw, ok: false, error });
  if (RESERVED_SERVER_NAMES.has(name)) return fail(`the name ${JSON.stringify(name)} is reserved; rename the entry`);
  // A name with no letter or digit would vanish from its tools' names (mcp__<server>__<tool>).
  if (!/[A-Za-z0-9]/.test(name)) {
    return fail(`the name ${JSON.stringify(name)} has no letters or digits; use [A-Za-z0-9_-]`);
  }
  if (!isPlainObject(raw)) return fail("the entry must be an object");
  if (raw.command !== undefined && raw.url !== undefined) {
    return fail('the entry has both "command" and "url"; keep "command" for stdio or "url" for http');
  }
  const type = raw.type ?? (raw.url !== undefined ? "http" : "stdio");
  if (type === "sse") return fail('"type": "sse" is the deprecated HTTP+SSE transport, which cat-code does not speak; use "http"');
  if (type === "stdio" && raw.command === undefined) return fail('a stdio entry needs "command"');
  if (type === "http" && raw.url === undefined) return fail('an http entry needs "url"');
  // A project's entry may send what it reads anywhere it likes: cat-code's own key never reaches it.
  const own = scope === "project" ? variableUses(raw).find((use) => isOwnSecret(use.name)) : undefined;
  if (own) return fail(`"${own.field}": ${ownSecretRefusal(own.name)}`);
  let expanded: Record<string, unknown>;
  try {
    expanded = expandEntry({ ...raw, type }, env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  const parsed = v.safeParse(ServerConfig, expanded);
  if (!parsed.success) return fail(parsed.issues.map((issue) => issue.message).join("; "));
  return { name, scope, source, raw, ok: true, config: parsed.output };
}

/** Expands `${VAR}` in the fields that may carry it; values of the wrong type are left for validation. */
function expandEntry(entry: Record<string, unknown>, env: Record<string, string | undefined>): Record<string, unknown> {
  const expand = (value: unknown, field: string): unknown => {
    if (typeof value !== "string") return value;
    try {
      return expandVariables(value, env);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`"${field}": ${error.message}`, "invalid-entry");
      throw error;
    }
  };
  const expandMap = (value: unknown, field: string): unknown =>
    isPlainObject(value)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, `${field}.${key}`)]))
      : value;
  // The oauth block nests one level more: its lists (scopes) expand item by item.
  const expandOAuth = (value: unknown): unknown =>
    isPlainObject(value)
      ? Object.fromEntries(
          Object.entries(value).map(([key, item]) => [
            key,
            Array.isArray(item) ? item.map((each, i) => expand(each, `oauth.${key}[${i}]`)) : expand(item, `oauth.${key}`),
          ]),
        )
      : value;
  return {
    ...entry,
    command: expand(entry.command, "command"),
    args: Array.isArray(entry.args) ? entry.args.map((arg, i) => expand(arg, `args[${i}]`)) : entry.args,
    env: expandMap(entry.env, "env"),
    cwd: expand(entry.cwd, "cwd"),
    url: expand(entry.url, "url"),
    headers: expandMap(entry.headers, "headers"),
    oauth: expandOAuth(entry.oauth),
  };
}
