import { sanitizeForTerminal } from "./terminal-text.ts";

/** How finished text is cut out of a stream and shown: plain lines, or Markdown blocks (markdown-renderer.ts). */
export interface TextFormat {
  /** How much of `pending` (which starts where a block starts) is finished and can be shown; all of it `atEnd`. */
  finishedLength(pending: string, atEnd: boolean): number;
  /** Finished text as the terminal shows it: sanitized, styled, ending with a newline. */
  format(finished: string): string;
}

/**
 * Plain text a whole line at a time, sanitized; wrapped between words at `width` terminal columns
 * (`Bun.stringWidth`: a CJK character or an emoji takes two) when a width is given, which only a
 * terminal has: a pipe gets the text exactly, with its own line breaks.
 */
export function plainFormat(width?: () => number): TextFormat {
  return {
    finishedLength: (pending, atEnd) => (atEnd ? pending.length : pending.lastIndexOf("\n") + 1),
    format(finished) {
      const safe = sanitizeForTerminal(finished, { keepNewlines: true });
      return width ? wrapToWidth(safe, width()) : safe;
    },
  };
}

/** A list item's marker: its text wraps under the text, not under the marker. */
const INDENT = /^[ \t]*(?:[*+-] |\d+[.)] )?/;

/**
 * Lines longer than `width` terminal columns (`Bun.stringWidth`: CJK and emoji take two, colour
 * codes none) broken between words, or inside a word longer than a line. A wrapped line keeps its
 * indentation (a list item, a code block), and a list item's text wraps under its text.
 */
export function wrapToWidth(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      if (Bun.stringWidth(line) <= width) return line;
      // Indentation styled by colour codes is rare in what marked-terminal writes: it comes first.
      let indent = INDENT.exec(line)?.[0] ?? "";
      if (Bun.stringWidth(indent) > width / 2) indent = "";
      const hanging = " ".repeat(Bun.stringWidth(indent));
      const rows = Bun.wrapAnsi(line.slice(indent.length), width - hanging.length, { hard: true, trim: true }).split("\n");
      return rows.map((row, i) => (i === 0 ? indent : hanging) + row).join("\n");
    })
    .join("\n");
}

/**
 * The model's answer for one request, shown as it streams, a finished piece (a line, a Markdown
 * block) at a time: a piece still growing is never shown, so it is never shown wrong.
 *
 * A stream that fails midway and is retried starts the answer over. What was shown of the failed
 * attempt is remembered; while the new attempt repeats it, nothing is written, and once it goes past
 * it, only the rest is. An attempt that says something else is shown whole after a line saying so.
 */
export class AnswerStream {
  /** This attempt's text so far. */
  private source = "";
  /** How much of `source` has been written. */
  private shown = 0;
  /** What an earlier attempt showed, until this one has matched it or gone another way. */
  private replay: string | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly format: TextFormat,
    private readonly onRestart: () => void = () => {},
  ) {}

  /** A new request: a new answer. Whatever is unfinished should have been ended (`end`). */
  reset(): void {
    this.source = "";
    this.shown = 0;
    this.replay = undefined;
  }

  /** The request is being retried: its next text starts the answer over. */
  retry(): void {
    const shownText = this.source.slice(0, this.shown);
    this.replay = (this.replay ?? "") + shownText;
    this.source = "";
    this.shown = 0;
  }

  push(delta: string): void {
    if (delta === "") return;
    this.source += delta;
    if (!this.caughtUp()) return;
    // Only a line end can finish a piece (both formats cut at whole lines): no need to look before one.
    if (delta.includes("\n")) this.emit(false);
  }

  /** The answer ended: its last piece is shown. */
  end(): void {
    if (this.replay !== undefined && this.replay !== "" && this.source !== "" && this.source !== this.replay) {
      // The retried answer stopped short of what was shown: it is another answer.
      this.restart();
    }
    this.replay = undefined;
    this.emit(true);
  }

  /** True once this attempt has matched (or left) what the failed one showed. */
  private caughtUp(): boolean {
    const replay = this.replay;
    if (replay === undefined) return true;
    if (this.source.length <= replay.length && replay.startsWith(this.source)) return false;
    if (this.source.startsWith(replay)) this.shown = replay.length;
    else this.restart();
    this.replay = undefined;
    return true;
  }

  private restart(): void {
    this.shown = 0;
    this.onRestart();
  }

  private emit(atEnd: boolean): void {
    const pending = this.source.slice(this.shown);
    const length = this.format.finishedLength(pending, atEnd);
    if (length <= 0) return;
    this.shown += length;
    const text = this.format.format(pending.slice(0, length));
    // The answer's end is one line end: a Markdown block's blank line after it would only push the prompt down.
    const shownText = atEnd ? text.replace(/\n+$/, "") : text;
    if (shownText === "" || (atEnd && shownText.trim() === "")) return;
    this.write(shownText.endsWith("\n") ? shownText : `${shownText}\n`);
  }
}
