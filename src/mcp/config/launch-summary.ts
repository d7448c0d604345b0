import { isAbsolute, relative, resolve } from "node:path";
import { redactUrl } from "../../system/redact-url.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { loadsCode } from "./code-loading-variables.ts";
import { variableLines, variableUses, variableWarnings } from "./entry-variables.ts";
import type { ServerEntry } from "./server-config.ts";

/** What stands in for a value that is not shown. */
export const MASK = "***";

export interface LaunchSummary {
  /** `[label, value]` rows: `command:`, `cwd:`, `env:` (one row a variable), `url:`, `headers:`, `oauth:`, `reads:`. */
  rows: [string, string][];
  /** One line each for what can run code other than the command shown, or send a secret. */
  warnings: string[];
}

/**
 * What an entry will run or contact, from the entry as written (before `${VAR}` expansion): the
 * full command line, cwd and every env variable; or the url, every header and the oauth block;
 * for a project entry, every `${VAR}` it reads and where the value goes. The one description
 * behind the approval question, `mcp get` and `mcp list`.
 *
 * With `values: "as-written"` (a project's `.mcp.json`, which someone else may have written: its
 * literal values are not the user's secrets, and they decide what runs), env and header values are
 * shown whole. With `values: "masked"` (the user's own files, where tokens live), they are `***`
 * and a URL without `${VAR}` goes through redactUrl. Nothing is cut; text is not yet sanitized.
 */
export function launchSummary(entry: ServerEntry, values: "as-written" | "masked"): LaunchSummary {
  const rows: [string, string][] = [];
  const warnings: string[] = [];
  if (!isPlainObject(entry.raw)) return { rows, warnings };
  const raw = entry.raw;
  const full = values === "as-written";
  const type = raw.type ?? (raw.url !== undefined ? "http" : "stdio");
  if (type === "http" || raw.url !== undefined) {
    const url = typeof raw.url === "string" ? raw.url : JSON.stringify(raw.url);
    rows.push(["url:", full || url.includes("${") ? visible(url) : visible(redactUrl(url))]);
    rows.push(...mapRows("headers:", raw.headers, ": ", full));
    rows.push(...oauthRows(raw.oauth, full));
    return withVariables(entry, full, { rows, warnings });
  }
  const words = [raw.command, ...(Array.isArray(raw.args) ? raw.args : [])];
  rows.push(["command:", words.map((word) => shellQuote(typeof word === "string" ? word : JSON.stringify(word) ?? "")).join(" ")]);
  if (raw.cwd !== undefined) {
    const cwd = typeof raw.cwd === "string" ? raw.cwd : JSON.stringify(raw.cwd);
    rows.push(["cwd:", visible(cwd)]);
    if (entry.scope === "project" && outside(cwd, entry.source)) warnings.push(`cwd ${visible(cwd)} is outside the project folder`);
  }
  rows.push(...mapRows("env:", raw.env, "=", full));
  if (isPlainObject(raw.env)) {
    for (const name of Object.keys(raw.env).filter(loadsCode)) {
      warnings.push(`${visible(name)} changes which code programs load: this entry can run more than its command`);
    }
  }
  return withVariables(entry, full, { rows, warnings });
}

/**
 * Shown as written (a project's entry): a `reads:` row for each `${VAR}` and where its value goes,
 * and a warning for each secret among them. The user's own entries read their own variables.
 */
function withVariables(entry: ServerEntry, full: boolean, summary: LaunchSummary): LaunchSummary {
  if (!full) return summary;
  const uses = variableUses(entry.raw);
  const reads = variableLines(uses).map((line, i): [string, string] => [i === 0 ? "reads:" : "", visible(line)]);
  return { rows: [...summary.rows, ...reads], warnings: [...summary.warnings, ...variableWarnings(uses).map(visible)] };
}

/** A value that names a variable and holds nothing itself: shown as written. A `:-default` may be the secret. */
const VARIABLE_ONLY = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Whether `text` is one bare `${VAR}`: the only form a secret may take in a file that is shared. */
export function isVariableOnly(text: unknown): boolean {
  return typeof text === "string" && VARIABLE_ONLY.test(text);
}

/**
 * An entry's `oauth` block as the user's own entries show it: `clientSecret` as `***` unless
 * written as a bare `${VAR}`, `clientMetadataUrl` through redactUrl unless it holds a `${VAR}`, the
 * rest (client id, scopes, port, grant) as written. A project's block is shown whole instead: its
 * client id, secret and scopes are what the project sends in the user's name. Undefined when there is none.
 */
export function maskedOAuth(oauth: unknown): unknown {
  if (oauth === undefined) return undefined;
  // Not an object (the entry is invalid): it may still be the secret, misplaced.
  if (!isPlainObject(oauth)) return MASK;
  const masked: Record<string, unknown> = { ...oauth };
  if (masked.clientSecret !== undefined) {
    masked.clientSecret = isVariableOnly(masked.clientSecret) ? masked.clientSecret : MASK;
  }
  if (typeof masked.clientMetadataUrl === "string" && !masked.clientMetadataUrl.includes("${")) {
    masked.clientMetadataUrl = redactUrl(masked.clientMetadataUrl);
  }
  return masked;
}

/** The `oauth:` rows, one a field: whole when `full`, else through maskedOAuth. */
function oauthRows(oauth: unknown, full: boolean): [string, string][] {
  const shown = full ? oauth : maskedOAuth(oauth);
  if (shown === undefined) return [];
  if (!isPlainObject(shown)) return [["oauth:", visible(typeof shown === "string" ? shown : (JSON.stringify(shown) ?? ""))]];
  return Object.entries(shown).map(([field, value], i): [string, string] => [
    i === 0 ? "oauth:" : "",
    `${visible(field)}: ${visible(Array.isArray(value) && value.every((item) => typeof item === "string") ? value.join(" ") : typeof value === "string" ? value : (JSON.stringify(value) ?? ""))}`,
  ]);
}

function mapRows(label: string, value: unknown, separator: string, full: boolean): [string, string][] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) return [[label, visible(JSON.stringify(value) ?? "")]];
  return Object.entries(value).map(([name, item], i): [string, string] => [
    i === 0 ? label : "",
    `${visible(name)}${separator}${full ? visible(typeof item === "string" ? item : JSON.stringify(item) ?? "") : MASK}`,
  ]);
}

/** True when a cwd (relative to the project's folder, as the entry means it) leaves that folder. */
function outside(cwd: string, source: string): boolean {
  if (cwd.includes("${")) return true;
  const folder = resolve(source, "..");
  const inside = relative(folder, resolve(folder, cwd));
  return inside.startsWith("..") || isAbsolute(inside);
}

/**
 * Control characters and invisible direction marks written as `\uXXXX`, so a value is seen whole:
 * a sanitizer would drop them, and then what is shown would not be what runs.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g, (char) =>
    `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A word as a POSIX shell would need it: bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  const shown = visible(word);
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(shown)) return shown;
  return `'${shown.replaceAll("'", `'\\''`)}'`;
}
