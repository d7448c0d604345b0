import { launchSummary } from "../mcp/config/launch-summary.ts";
import type { ServerEntry } from "../mcp/config/server-config.ts";
import { alignColumns, sanitizeForTerminal } from "./terminal-text.ts";

/**
 * What an entry will run, as `[label, value]` rows ready for a terminal: `command:`, `cwd:`, `env:`,
 * or `url:`, `headers:`, then a `warning:` row for each way it can run more than its command.
 * A project entry (`.mcp.json`, possibly written by someone else) shows its values as written; the
 * user's own entries mask env and header values. The approval question, `mcp get` and `mcp list`
 * all show an entry through this.
 */
export function launchRows(entry: ServerEntry): [string, string][] {
  const { rows, warnings } = launchSummary(entry, entry.scope === "project" ? "as-written" : "masked");
  return [...rows, ...warnings.map((warning): [string, string] => ["warning:", warning])].map(([label, value]) => [
    label,
    sanitizeForTerminal(value),
  ]);
}

/** The same rows as aligned lines, each starting with `indent`. */
export function launchLines(entry: ServerEntry, indent: string): string[] {
  return alignColumns(launchRows(entry)).map((line) => `${indent}${line}`);
}
