import { alignColumns } from "./terminal-text.ts";
import { wrapIndented } from "./text-wrap.ts";

/** Below this many columns for the last column, it goes under the others instead of beside them. */
const MIN_TEXT_COLUMNS = 20;

/**
 * Rows aligned as `alignColumns` does, with the last column (a description) wrapped between words
 * to fit `width` terminal columns (`Bun.stringWidth`: CJK and emoji take two), its next lines
 * starting under its first. Without a width (not a terminal) the rows are as `alignColumns` makes
 * them: a pipe gets one row per line. The cells must be sanitized already.
 *
 * `widestCell`: a row with a cell wider than this (a long usage line among short ones) does not
 * widen its column for every row: its cells take a line of their own, wrapped, and its description
 * goes on the next line, in the description column.
 */
export function alignColumnsWrapped(rows: string[][], width: number | undefined, gap = "  ", widestCell = Number.POSITIVE_INFINITY): string[] {
  if (width === undefined) return alignColumns(rows, gap);
  const tooWide = (row: string[]) => row.slice(0, -1).some((cell) => Bun.stringWidth(cell) > widestCell);
  const shaped = rows.flatMap((row) => (row.length > 1 && tooWide(row) ? [[row.slice(0, -1).join(gap)], [...row.slice(0, -1).map(() => ""), row.at(-1) ?? ""]] : [row]));
  const aligned = alignColumns(shaped, gap);
  return aligned.flatMap((line, i) => {
    if (Bun.stringWidth(line) <= width) return [line];
    const row = shaped[i] ?? [];
    const text = row.at(-1) ?? "";
    // Where the last column starts: the aligned line minus the text at its end.
    const start = Bun.stringWidth(line) - Bun.stringWidth(text);
    const indent = width - start >= MIN_TEXT_COLUMNS ? start : Math.min(4, start);
    const head = line.slice(0, line.length - text.length);
    const wrapped = wrapIndented(text, Math.max(1, width - indent));
    if (indent === start) return wrapped.map((part, j) => (j === 0 ? head + part : " ".repeat(indent) + part));
    return [...(head.trim() === "" ? [] : [head.trimEnd()]), ...wrapped.map((part) => " ".repeat(indent) + part)];
  });
}
