import type { Tokens } from "marked";
import { renderInline } from "./markdown-inline.ts";
import { MARKDOWN_STYLES as S } from "./markdown-styles.ts";
import { wrapIndented } from "./text-wrap.ts";

/** A column is not made narrower than its longest word, up to this many columns (longer words are cut). */
const LONGEST_WORD_KEPT = 16;
/** Nor narrower than this, unless its widest cell is. */
const MIN_COLUMN = 8;

type Align = "left" | "right" | "center" | null;

/**
 * A table's rows, `width` columns at most: framed, with its columns as wide as their cells need;
 * narrower than that, cells wrap inside their columns; and when even narrowed columns do not fit
 * (many columns, a narrow window), one block per row, a `header: value` line per cell. Never the
 * raw `| a | b |` source, and never a frame the terminal would break by wrapping it.
 */
export function renderTable(table: Tokens.Table, width: number): string[] {
  const header = table.header.map((cell) => renderInline(cell.tokens));
  const body = table.rows.map((row) => row.map((cell) => renderInline(cell.tokens)));
  const columns = header.length;
  const cells = [header, ...body];
  const natural = range(columns).map((c) => Math.max(1, ...cells.map((row) => widest(row[c] ?? ""))));
  const least = (wordCap: number) =>
    range(columns).map((c) => {
      const word = Math.min(wordCap, Math.max(...cells.map((row) => longestWord(row[c] ?? ""))));
      return Math.min(natural[c] ?? 1, Math.max(word, MIN_COLUMN));
    });
  // `│ a │ b │`: a bar and a space before each cell, a space after, and the last bar.
  const room = width - (3 * columns + 1);
  // Every word whole when that fits (`alice@example.com` is not cut to give prose more room, as
  // Claude Code does); else only words up to LONGEST_WORD_KEPT are kept whole.
  const whole = least(Infinity);
  const minimum = sum(whole) <= room ? whole : least(LONGEST_WORD_KEPT);
  if (sum(minimum) > room) return keyValueRows(header, body, width);
  const widths = sum(natural) <= room ? natural : shareRoom(natural, minimum, room);
  return framedRows(header, body, widths, table.align);
}

function framedRows(header: string[], body: string[][], widths: number[], align: Align[]): string[] {
  const rule = (left: string, middle: string, right: string) => S.frame(left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right);
  const wrapped = [header.map(S.tableHeader), ...body].map((row) => widths.map((w, c) => wrapIndented(row[c] ?? "", w)));
  // A row of several lines needs the rule between rows to be told from the next.
  const ruled = wrapped.slice(1).some((row) => row.some((cell) => cell.length > 1));
  const rows = [rule("┌", "┬", "┐")];
  wrapped.forEach((row, r) => {
    if (r === 1 || (r > 1 && ruled)) rows.push(rule("├", "┼", "┤"));
    const height = Math.max(1, ...row.map((cell) => cell.length));
    for (let line = 0; line < height; line++) {
      const parts = row.map((cell, c) => pad(cell[line] ?? "", widths[c] ?? 1, align[c] ?? null));
      rows.push(`${S.frame("│")} ${parts.join(` ${S.frame("│")} `)} ${S.frame("│")}`);
    }
  });
  rows.push(rule("└", "┴", "┘"));
  return rows;
}

/** Each row as a block of `header: value` lines, the blocks a blank row apart. */
function keyValueRows(header: string[], body: string[][], width: number): string[] {
  return body.flatMap((row, r) => [
    ...(r > 0 ? [""] : []),
    ...header.flatMap((key, c) => wrapIndented(`${S.tableHeader(`${key || `column ${c + 1}`}:`)} ${row[c] ?? ""}`, width, "", "  ")),
  ]);
}

/** Columns narrowed from `natural` to fit `room`, none below its minimum; the room left is shared by what each still lacks. */
function shareRoom(natural: number[], minimum: number[], room: number): number[] {
  const widths = [...minimum];
  let left = room - sum(widths);
  const lacking = sum(natural) - sum(widths);
  widths.forEach((w, c) => {
    const share = Math.floor((left * ((natural[c] ?? w) - w)) / Math.max(1, lacking));
    widths[c] = w + share;
  });
  left = room - sum(widths);
  for (let c = 0; left > 0 && c < widths.length; c = (c + 1) % widths.length) {
    if ((widths[c] ?? 0) < (natural[c] ?? 0)) {
      widths[c] = (widths[c] ?? 0) + 1;
      left--;
    } else if (widths.every((w, i) => w >= (natural[i] ?? 0))) break;
  }
  return widths;
}

function pad(text: string, width: number, align: Align): string {
  const space = Math.max(0, width - Bun.stringWidth(text));
  if (align === "right") return " ".repeat(space) + text;
  if (align === "center") return " ".repeat(Math.floor(space / 2)) + text + " ".repeat(space - Math.floor(space / 2));
  return text + " ".repeat(space);
}

function widest(text: string): number {
  return Math.max(0, ...text.split("\n").map((line) => Bun.stringWidth(line)));
}

function longestWord(text: string): number {
  return Math.max(0, ...Bun.stripANSI(text).split(/\s+/).map((word) => Bun.stringWidth(word)));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
