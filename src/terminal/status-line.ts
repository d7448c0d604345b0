import { cutToColumns } from "./terminal-text.ts";

export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Back to the line's start and erase it: the line is rewritten, not added to. */
const ERASE_LINE = "\r\u001b[2K";

/**
 * One line at the bottom of a terminal that is rewritten in place (a running call's progress) and
 * erased before anything else is written, so the output around it reads as if it never was. Only
 * a terminal can rewrite a line: on a pipe or a file it shows nothing at all, never a trail of
 * updates. The text must be sanitized already; it is cut to the terminal's width so it never wraps.
 */
export class StatusLine {
  private shown: { text: string; paint: (text: string) => string } | undefined;

  constructor(private readonly stream: StatusStream) {}

  get isLive(): boolean {
    return this.stream.isTTY === true;
  }

  /** Shows `text` in place of what the line showed; `paint` (colour) is applied after cutting it to width. */
  show(text: string, paint: (text: string) => string = (t) => t): void {
    if (!this.isLive) return;
    const width = Math.max(10, (this.stream.columns ?? 80) - 1);
    this.stream.write(`${ERASE_LINE}${paint(cutToColumns(text, width))}`);
    this.shown = { text, paint };
  }

  /** Writes a whole line above the status line, which stays; without a terminal, just the line. */
  printAbove(line: string): void {
    const shown = this.shown;
    this.clear();
    this.stream.write(`${line}\n`);
    if (shown) this.show(shown.text, shown.paint);
  }

  /** Erases the line if one is shown; the cursor is left at the start of the empty line. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write(ERASE_LINE);
    this.shown = undefined;
  }
}
