import { cutToColumns } from "./terminal-text.ts";

export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  /** A terminal's output stream emits 'resize' on SIGWINCH (Node's tty.WriteStream, Bun's too). */
  on?(event: "resize", listener: () => void): unknown;
  off?(event: "resize", listener: () => void): unknown;
}

/** A line under the status line: its text, and its colour applied after cutting it to width. */
export interface StatusBelowLine {
  text: string;
  paint?: (text: string) => string;
}

/** Back to the line's start and erase from there to the end of the screen. */
const ERASE = "\r\u001b[J";

/**
 * One line at the bottom of a terminal that is rewritten in place (a spinner, a running call's
 * progress) and erased before anything else is written, so the output around it reads as if it
 * never was. Only a terminal can rewrite a line: on a pipe or a file it shows nothing at all, never
 * a trail of updates. The text must be sanitized already; it is cut to the terminal's width.
 *
 * After drawing, the cursor is parked at the line's start (`\r`). That is what keeps a resize from
 * garbling it: a terminal that re-wraps on a narrower window (VTE, iTerm2, kitty) turns the line
 * into two rows and keeps the cursor at its logical start, one that does not (xterm.js, xterm)
 * cuts it and keeps the cursor in column 0; either way "erase to the end of the screen" from
 * there removes all of it. The line is redrawn at the new width on the 'resize' event.
 */
export class StatusLine {
  /**
   * Lines drawn under the status text while it is shown (the todo list), read at every draw; each
   * is cut to one row, then painted, and its text must be sanitized already. The cursor goes back up to the status line,
   * so erasing from there still erases all of them.
   */
  below: () => readonly StatusBelowLine[] = () => [];
  private shown: { text: string; paint: (text: string) => string } | undefined;
  private readonly onResize = () => {
    const shown = this.shown;
    if (shown) this.show(shown.text, shown.paint);
  };

  constructor(private readonly stream: StatusStream) {}

  get isLive(): boolean {
    return this.stream.isTTY === true;
  }

  get isShown(): boolean {
    return this.shown !== undefined;
  }

  /** The terminal's width now, in columns. */
  get columns(): number {
    return this.stream.columns ?? 80;
  }

  /**
   * Rewrites the line just above the cursor (one row: the caller checks that it fit) with `lines`:
   * a tool's start line becomes the line with its result. Only on a terminal; the status is erased.
   */
  replaceLineAbove(lines: string): void {
    if (!this.isLive) return;
    this.clear();
    this.stream.write(`\u001b[1A${ERASE}${lines}\n`);
  }

  /** Shows `text` in place of what the line showed; `paint` (colour) is applied after cutting it to width. */
  show(text: string, paint: (text: string) => string = (t) => t): void {
    if (!this.isLive) return;
    const width = Math.max(10, (this.stream.columns ?? 80) - 1);
    const below = this.below().map((line) => `\n${(line.paint ?? ((t: string) => t))(cutToColumns(line.text, width))}`);
    const back = below.length ? `\u001b[${below.length}A` : "";
    this.stream.write(`${ERASE}${paint(cutToColumns(text, width))}${below.join("")}${back}\r`);
    if (!this.shown) this.stream.on?.("resize", this.onResize);
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
    this.stream.write(ERASE);
    this.stream.off?.("resize", this.onResize);
    this.shown = undefined;
  }
}
