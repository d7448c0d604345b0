import type { SearchView } from "./history-search.ts";

/** Terminal columns: a tab stop is 8 (as readline counted), a wide character 2. */
const TAB_SIZE = 8;

/**
 * Where a terminal's cursor is after writing `text` from the first column of a terminal `columns`
 * wide (none: no wrapping): rows down, and the column. Escape sequences take no room.
 */
export function cursorPosition(text: string, columns: number | undefined): { rows: number; cols: number } {
  const width = columns && columns > 0 ? columns : Infinity;
  let offset = 0;
  for (const char of Bun.stripANSI(text)) {
    if (char === "\t") {
      offset += TAB_SIZE - (offset % TAB_SIZE);
      continue;
    }
    const charWidth = Bun.stringWidth(char);
    // A wide character does not split across rows: it starts the next one.
    if (charWidth === 2 && (offset + 1) % width === 0) offset++;
    offset += charWidth;
  }
  if (width === Infinity) return { rows: 0, cols: offset };
  const cols = offset % width;
  return { rows: (offset - cols) / width, cols };
}

/**
 * The prompt's line on the screen: draws a view (the prompt and the line, or Ctrl-R's search in
 * their place), wrapped at the terminal's width, with the live
 * menu's rows under it, and remembers the row the cursor was left on, which is where the next
 * drawing starts. It only draws; what is typed is the LineEditor's.
 */
export class LineDrawing {
  /** Rows between the first row of the prompt and the cursor, as last drawn: where a redraw starts. */
  private cursorRow = 0;

  constructor(private readonly output: NodeJS.WritableStream & { columns?: number }) {}

  /** Clears what was drawn and draws the prompt and the line, the cursor where it is in the line. */
  draw(view: SearchView, menu: readonly string[]): void {
    const shown = view.prompt + view.text;
    const end = this.position(shown);
    const cursor = this.position(view.prompt + view.text.slice(0, view.cursor));
    let out = `${this.toFirstRow()}\u001b[1G\u001b[J${shown}`;
    // At the last column the terminal waits to wrap: a blank makes it take the new row now.
    if (end.cols === 0 && end.rows > 0) out += " ";
    // The menu's rows under the line (each shorter than a row, so none wraps), then back to the line's end.
    if (menu.length) out += `\r\n${menu.join("\r\n")}\u001b[${menu.length}A\u001b[${end.cols + 1}G`;
    if (cursor.rows !== end.rows || cursor.cols !== end.cols || end.cols === 0) {
      out += `\u001b[${cursor.cols + 1}G`;
      if (end.rows > cursor.rows) out += `\u001b[${end.rows - cursor.rows}A`;
    }
    this.output.write(out);
    this.cursorRow = cursor.rows;
  }

  /** Clears what was drawn and prints `text` in its place; the line is to be drawn again below it. */
  clearFor(text: string): void {
    this.output.write(`${this.toFirstRow()}\r\u001b[J${text}\n`);
    this.cursorRow = 0;
  }

  /** The cursor is on a row of its own now (Enter, a list printed under the line, a new line started): the next drawing starts there. */
  freshRow(): void {
    this.cursorRow = 0;
  }

  /** From the cursor to the last row of `view` as drawn. */
  toEndRow(view: SearchView): string {
    const rows = this.rows(view.prompt + view.text) - this.cursorRow;
    return rows > 0 ? `\u001b[${rows}B` : "";
  }

  /** Rows below the first that `text` takes at the terminal's width. */
  rows(text: string): number {
    return this.position(text).rows;
  }

  private toFirstRow(): string {
    return this.cursorRow > 0 ? `\u001b[${this.cursorRow}A` : "";
  }

  private position(text: string): { rows: number; cols: number } {
    return cursorPosition(text, this.output.columns);
  }
}
