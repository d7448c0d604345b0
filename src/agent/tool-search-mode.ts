/**
 * When servers' tools are deferred behind the tool search (request-tools.ts): `auto` when their
 * definitions would take more than a share of the model's context window (10% unless
 * `auto:<percent>`), `always`, or `never`. settings.json's `toolSearch` says it; the environment's
 * `ENABLE_TOOL_SEARCH` (Claude Code's name, which also takes true and false) overrides it.
 */
export type ToolSearchMode = { kind: "auto"; percent: number } | { kind: "always" } | { kind: "never" };

export const DEFAULT_TOOL_SEARCH: ToolSearchMode = { kind: "auto", percent: 10 };

/** What the setting and the variable accept, for a message that names it. */
export const TOOL_SEARCH_VALUES = '"auto", "auto:<percent>" (0-100), "always" or "never"';

const AUTO_PERCENT = /^auto:(\d{1,3}(?:\.\d+)?)$/;

/** The mode a value names, or undefined when it names none (`true`/`false` only from the environment). */
export function parseToolSearchMode(value: string, fromEnv = false): ToolSearchMode | undefined {
  const word = value.trim().toLowerCase();
  if (word === "auto") return DEFAULT_TOOL_SEARCH;
  if (word === "always" || (fromEnv && (word === "true" || word === "1"))) return { kind: "always" };
  if (word === "never" || (fromEnv && (word === "false" || word === "0"))) return { kind: "never" };
  const percent = AUTO_PERCENT.exec(word)?.[1];
  if (percent === undefined || Number(percent) > 100) return undefined;
  return { kind: "auto", percent: Number(percent) };
}

/**
 * ENABLE_TOOL_SEARCH, then the setting, then `auto`. A variable that names no mode is left aside
 * with a warning line (`warn`), not an error: cat-code still starts.
 */
export function resolveToolSearchMode(
  setting: string | undefined,
  env: Record<string, string | undefined> = process.env,
  warn: (line: string) => void = () => {},
): ToolSearchMode {
  const fromEnv = env.ENABLE_TOOL_SEARCH;
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const mode = parseToolSearchMode(fromEnv, true);
    if (mode) return mode;
    warn(`ENABLE_TOOL_SEARCH=${JSON.stringify(fromEnv.slice(0, 40))} is not ${TOOL_SEARCH_VALUES}, true or false; it is ignored`);
  }
  return (setting !== undefined && parseToolSearchMode(setting)) || DEFAULT_TOOL_SEARCH;
}
