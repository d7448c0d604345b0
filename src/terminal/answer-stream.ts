import { sanitizeForTerminal } from "./terminal-text.ts";
import { wrapToWidth } from "./text-wrap.ts";

/** How finished text is cut out of a stream and shown: plain lines, or Markdown blocks (markdown-renderer.ts). */
export interface TextFormat {
  /** How much of `pending` (which starts where a block starts) is finished and can be shown; all of it `atEnd`. */
  finishedLength(pending: string, atEnd: boolean): number;
  /**
   * Finished text as the terminal shows it: sanitized, styled, ending with a newline. `grown`: the
   * first block's first rows were shown while it grew (`openLines`); they must come out the same
   * (the caller leaves them out), so it is laid out as they were, at the width they were made at.
   */
  format(finished: string, grown: boolean): string;
  /**
   * The rows of the unfinished block `pending` (one block, still growing) that will not change
   * whatever comes next, each without its line end: what can be shown of it already. Undefined when
   * there is nothing new to tell (`lineEnded` false: the delta had no line end, and only a paragraph
   * can grow a row without one). `sameBlock`: `pending` is the text given last time, grown (the
   * format may keep what it made of it, and only look at what is new).
   */
  openLines?(pending: string, lineEnded: boolean, sameBlock: boolean): string[] | undefined;
}

/**
 * Plain text a whole line at a time, sanitized; wrapped between words at `width` terminal columns
 * (`Bun.stringWidth`: a CJK character or an emoji takes two) when a width is given, which only a
 * terminal has: there, a long line's rows are shown as they fill. A pipe gets the text exactly, with
 * its own line breaks.
 */
export function plainFormat(width?: () => number): TextFormat {
  /** The line growing: where its rows were last made, the room left on their last one, and their width. */
  let last: { at: number; room: number; columns: number } | undefined;
  return {
    finishedLength: (pending, atEnd) => (atEnd ? pending.length : pending.lastIndexOf("\n") + 1),
    format(finished, grown) {
      const safe = sanitizeForTerminal(finished, { keepNewlines: true });
      if (!width) return safe;
      const columns = grown && last ? last.columns : width();
      last = undefined;
      return wrapToWidth(safe, columns);
    },
    openLines: width
      ? (pending, _lineEnded, sameBlock) => {
          // `pending` is part of one line: whole lines were finished before. No row can fill before
          // the new text is as wide as the room left on the last one.
          if (sameBlock && last && Bun.stringWidth(pending.slice(last.at)) < last.room) return undefined;
          const columns = sameBlock && last ? last.columns : width();
          const rows = wrapToWidth(sanitizeForTerminal(pending), columns).split("\n");
          last = { at: pending.length, room: Math.max(1, columns - Bun.stringWidth(rows.at(-1) ?? "")), columns };
          return rows.slice(0, -1);
        }
      : undefined,
  };
}

/**
 * The model's answer for one request, shown as it streams: a finished piece (a line, a Markdown
 * block) at once, and of a piece still growing, the rows that can no longer change (`openLines`: a
 * paragraph's full rows, a code block's lines). Nothing shown is ever shown again or differently.
 *
 * A stream that fails midway and is retried starts the answer over. What was shown of the failed
 * attempt is remembered; while the new attempt repeats it, nothing is written, and once it goes past
 * it, only the rest is. An attempt that says something else is shown whole after a line saying so.
 */
export class AnswerStream {
  /** This attempt's text so far. */
  private source = "";
  /** How much of `source` has been written: whole blocks. */
  private shown = 0;
  /** The rows written of the block that starts at `shown`, still growing. */
  private open: string[] | undefined;
  /** How much of `source` the open rows were made from. */
  private openUpTo = 0;
  /** Where the text last given to `openLines` began (a `shown`), while it only grows; undefined once it is another text. */
  private growing: number | undefined;
  /** What an earlier attempt showed, until this one has matched it or gone another way; with its `shown`. */
  private replay: { text: string; shown: number } | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly format: TextFormat,
    private readonly onRestart: () => void = () => {},
  ) {}

  /** A new request: a new answer. Whatever is unfinished should have been ended (`end`). */
  reset(): void {
    this.source = "";
    this.shown = 0;
    this.open = undefined;
    this.growing = undefined;
    this.replay = undefined;
  }

  /** The request is being retried: its next text starts the answer over. */
  retry(): void {
    // Not caught up yet: what the earlier attempt showed is still what is to be matched.
    this.replay ??= { text: this.source.slice(0, Math.max(this.shown, this.open ? this.openUpTo : 0)), shown: this.shown };
    this.growing = undefined;
    this.source = "";
    this.shown = 0;
  }

  push(delta: string): void {
    if (delta === "") return;
    this.source += delta;
    const replaying = this.replay !== undefined;
    if (!this.caughtUp()) return;
    // Having just caught up, the text past what was shown may hold line ends of earlier deltas.
    this.emit(false, replaying || delta.includes("\n"));
  }

  /** The answer ended: its last piece is shown. */
  end(): void {
    const replay = this.replay?.text;
    if (replay !== undefined && replay !== "" && this.source !== "" && this.source !== replay) {
      // The retried answer stopped short of what was shown: it is another answer.
      this.restart();
    } else if (replay !== undefined && this.source === replay) {
      this.shown = this.replay?.shown ?? 0;
    }
    this.replay = undefined;
    this.emit(true, true);
    this.open = undefined;
  }

  /** True once this attempt has matched (or left) what the failed one showed. */
  private caughtUp(): boolean {
    const replay = this.replay;
    if (replay === undefined) return true;
    if (this.source.length <= replay.text.length && replay.text.startsWith(this.source)) return false;
    if (this.source.startsWith(replay.text)) this.shown = replay.shown;
    else this.restart();
    this.replay = undefined;
    return true;
  }

  private restart(): void {
    this.shown = 0;
    this.open = undefined;
    this.growing = undefined;
    this.onRestart();
  }

  private emit(atEnd: boolean, lineEnded: boolean): void {
    if (lineEnded) this.emitFinished(atEnd);
    if (atEnd || !this.format.openLines) return;
    const open = this.format.openLines(this.source.slice(this.shown), lineEnded, this.growing === this.shown);
    this.growing = this.shown;
    if (!open || open.length <= (this.open?.length ?? 0)) return;
    const rows = open.slice(this.open?.length ?? 0);
    this.open = open;
    this.openUpTo = this.source.length;
    this.write(`${rows.join("\n")}\n`);
  }

  /** Whole blocks: the first one without the rows already shown of it while it grew. */
  private emitFinished(atEnd: boolean): void {
    const pending = this.source.slice(this.shown);
    const length = this.format.finishedLength(pending, atEnd);
    if (length <= 0) return;
    this.shown += length;
    let text = this.format.format(pending.slice(0, length), this.open !== undefined);
    if (this.open) text = withoutShownRows(text, this.open);
    this.open = undefined;
    // The answer's end is one line end: a Markdown block's blank line after it would only push the prompt down.
    const shownText = atEnd ? text.replace(/\n+$/, "") : text;
    if (shownText === "" || (atEnd && shownText.trim() === "")) return;
    this.write(shownText.endsWith("\n") ? shownText : `${shownText}\n`);
  }
}

/**
 * `text` without its first rows where they are the ones shown already (compared without colour:
 * highlighting may differ once a block is whole). Should a row differ, the text is shown from
 * there: a row twice is better than a row lost.
 */
function withoutShownRows(text: string, shown: readonly string[]): string {
  const rows = text.split("\n");
  let same = 0;
  while (same < shown.length && same < rows.length - 1 && Bun.stripANSI(rows[same] ?? "") === Bun.stripANSI(shown[same] ?? "")) same++;
  return rows.slice(same).join("\n");
}
