import { alignColumns } from "./terminal-text.ts";

/** Below this many columns for the last column, it goes under the others instead of beside them. */
const MIN_TEXT_COLUMNS = 20;

/**
 * Rows aligned as `alignColumns` does, with the last column (a description) wrapped between words
 * to fit `width` terminal columns (`Bun.stringWidth`: CJK and emoji take two), its next lines
 * starting under its first. Without a width (not a terminal) the rows are as `alignColumns` makes
 * them: a pipe gets one row per line. The cells must be sanitized already.
 */
export function alignColumnsWrapped(rows: string[][], width: number | undefined, gap = "  "): string[] {
  const aligned = alignColumns(rows, gap);
  if (width === undefined) return aligned;
  return aligned.flatMap((line, i) => {
    if (Bun.stringWidth(line) <= width) return [line];
    const row = rows[i] ?? [];
    const text = row.at(-1) ?? "";
    // Where the last column starts: the aligned line minus the text at its end.
    const start = Bun.stringWidth(line) - Bun.stringWidth(text);
    const indent = width - start >= MIN_TEXT_COLUMNS ? start : Math.min(4, start);
    const head = line.slice(0, line.length - text.length);
    const wrapped = Bun.wrapAnsi(text, Math.max(1, width - indent), { hard: true, trim: true }).split("\n");
    if (indent === start) return wrapped.map((part, j) => (j === 0 ? head + part : " ".repeat(indent) + part));
    return [head.trimEnd(), ...wrapped.map((part) => " ".repeat(indent) + part)];
  });
}
