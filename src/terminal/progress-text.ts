import type { ToolProgress } from "../agent/tool.ts";
import { oneLine } from "./terminal-text.ts";

/**
 * A running call's progress as a few words for one line: `3/10 indexing…`, `42 files…`, `0.5/1…`.
 * The message comes from a server: it is sanitized here, newlines included. The trailing ellipsis
 * says the call still runs.
 */
export function progressText({ progress, total, message }: ToolProgress): string {
  const count = total === undefined ? formatNumber(progress) : `${formatNumber(progress)}/${formatNumber(total)}`;
  const words = message === undefined ? "" : oneLine(message);
  const text = words === "" ? count : `${count} ${words}`;
  return /(…|\.\.\.)$/.test(text) ? text : `${text}…`;
}

/** Whole numbers as they are; fractions to two places, so `1/3` of a step does not fill the line. */
function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2)));
}
