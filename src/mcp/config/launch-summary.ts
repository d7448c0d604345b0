import { isAbsolute, relative, resolve } from "node:path";
import { redactUrl } from "../../system/redact-url.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { loadsCode } from "./code-loading-variables.ts";
import type { ServerEntry } from "./server-config.ts";

/** What stands in for a value that is not shown. */
export const MASK = "***";

export interface LaunchSummary {
  /** `[label, value]` rows: `command:`, `cwd:`, `env:` (one row a variable), `url:`, `headers:`. */
  rows: [string, string][];
  /** One line each for what can run code other than the command shown. */
  warnings: string[];
}

/**
 * What an entry will run or contact, from the entry as written (before `${VAR}` expansion): the
 * full command line, cwd and every env variable; or the url and every header. The one description
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
    return { rows, warnings };
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
  return { rows, warnings };
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
