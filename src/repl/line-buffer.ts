/** What a key does to the line being edited (see key-bindings.ts for which key does what). */
export type EditAction =
  | "left"
  | "right"
  | "home"
  | "end"
  | "word-left"
  | "word-right"
  | "backspace"
  | "delete"
  | "kill-start"
  | "kill-end"
  | "kill-word-back"
  | "kill-word-forward"
  | "yank"
  | "yank-pop"
  | "undo"
  | "redo"
  | "transpose";

/** The word before the cursor, read backwards: blanks, then one run of word or of other characters (as readline moves). */
const WORD_BEFORE = /^\s*(?:[^\w\s]+|\w+)?/;
/** The word after the cursor: one run of blanks, word or other characters, and the blanks after it. */
const WORD_AFTER = /^(?:\s+|[^\w\s]+|\w+)\s*/;
/** How many changes Ctrl-_ can take back on one line, as readline kept. */
const UNDO_LIMIT = 2048;
/** How many cuts Alt+Y goes back through, as readline's kill ring kept. */
const KILL_RING_SIZE = 32;

interface Snapshot {
  text: string;
  cursor: number;
}

/**
 * The line being edited: its text, the cursor, the cuts (Ctrl-U, Ctrl-K, Ctrl-W, Alt+D) for Ctrl-Y
 * and Alt+Y, and the line before each change for Ctrl-_ (undo) and Ctrl-^ (redo). Pure: no
 * terminal, so every edit is a unit test. The cursor is an index into the text and moves by whole
 * code points (an emoji is one step). As readline's, every change is one undo step (a key typed, a
 * paste, a cut), a move is none, and the steps start again with each line; the cuts last.
 */
export class LineBuffer {
  text = "";
  cursor = 0;
  private undos: Snapshot[] = [];
  private redos: Snapshot[] = [];
  /** The cuts, newest first; Ctrl-Y puts back the one at `ringAt`, Alt+Y swaps it for the next older. */
  private readonly killRing: string[] = [];
  private ringAt = 0;
  /** The line as the last Ctrl-Y or Alt+Y left it, and what it put in: Alt+Y works only right after one. */
  private lastYank: (Snapshot & { yanked: string }) | undefined;

  /** Starts a new line: `text` (typed ahead), the cursor at its end, nothing to undo. */
  reset(text = ""): void {
    this.text = text;
    this.cursor = text.length;
    this.undos = [];
    this.redos = [];
  }

  /** Replaces the line (a recalled history entry), the cursor at its end. */
  set(text: string): void {
    const before = this.snapshot();
    this.text = text;
    this.cursor = text.length;
    this.changed(before);
  }

  insert(text: string): void {
    const before = this.snapshot();
    this.splice(this.cursor, this.cursor, text);
    this.changed(before);
  }

  /** Replaces the `length` characters before the cursor with `text` (a completion that rewrites the word typed). */
  replaceBefore(length: number, text: string): void {
    const before = this.snapshot();
    this.splice(this.cursor - length, this.cursor, text);
    this.changed(before);
  }

  /** Applies one edit; false when it changed nothing (the cursor at an end already). */
  apply(action: EditAction): boolean {
    const before = this.snapshot();
    switch (action) {
      case "left":
        this.cursor -= this.charBefore().length;
        break;
      case "right":
        this.cursor += this.charAfter().length;
        break;
      case "home":
        this.cursor = 0;
        break;
      case "end":
        this.cursor = this.text.length;
        break;
      case "word-left":
        this.cursor -= this.wordBefore().length;
        break;
      case "word-right":
        this.cursor += this.wordAfter().length;
        break;
      case "backspace":
        this.cut(this.cursor - this.charBefore().length, this.cursor, false);
        break;
      case "delete":
        this.cut(this.cursor, this.cursor + this.charAfter().length, false);
        break;
      case "kill-start":
        this.cut(0, this.cursor, true);
        break;
      case "kill-end":
        this.cut(this.cursor, this.text.length, true);
        break;
      case "kill-word-back":
        this.cut(this.cursor - this.wordBefore().length, this.cursor, true);
        break;
      case "kill-word-forward":
        this.cut(this.cursor, this.cursor + (WORD_AFTER.exec(this.text.slice(this.cursor))?.[0].length ?? 0), true);
        break;
      case "yank":
        this.yank(this.killRing[this.ringAt] ?? "", 0);
        break;
      case "yank-pop":
        this.yankPop();
        break;
      case "undo":
        return this.restore(this.undos, this.redos);
      case "redo":
        return this.restore(this.redos, this.undos);
      case "transpose":
        this.transpose();
        break;
    }
    this.changed(before);
    return this.text !== before.text || this.cursor !== before.cursor;
  }

  private snapshot(): Snapshot {
    return { text: this.text, cursor: this.cursor };
  }

  /** After an edit: the line before it is one undo step, if the text changed; what was undone cannot come back. */
  private changed(before: Snapshot): void {
    if (this.text === before.text) return;
    this.undos.push(before);
    if (this.undos.length > UNDO_LIMIT) this.undos.shift();
    this.redos = [];
  }

  /** Undo (from the undos, saving the line for redo) or redo (the other way round). */
  private restore(from: Snapshot[], to: Snapshot[]): boolean {
    const snapshot = from.pop();
    if (!snapshot) return false;
    to.push(this.snapshot());
    this.text = snapshot.text;
    this.cursor = snapshot.cursor;
    return true;
  }

  private splice(from: number, to: number, inserted: string): void {
    this.text = this.text.slice(0, from) + inserted + this.text.slice(to);
    this.cursor = from + inserted.length;
  }

  private cut(from: number, to: number, keep: boolean): void {
    if (from >= to) return;
    if (keep) this.kill(this.text.slice(from, to));
    this.splice(from, to, "");
  }

  /** A cut goes first in the ring, unless it is the one there already (as readline kept them). */
  private kill(text: string): void {
    if (text === this.killRing[0]) return;
    this.killRing.unshift(text);
    this.ringAt = 0;
    if (this.killRing.length > KILL_RING_SIZE) this.killRing.pop();
  }

  /** Puts `text` in place of the `replaced` characters before the cursor, for a following Alt+Y. */
  private yank(text: string, replaced: number): void {
    if (text === "") return;
    this.splice(this.cursor - replaced, this.cursor, text);
    this.lastYank = { ...this.snapshot(), yanked: text };
  }

  /** Alt+Y right after Ctrl-Y: the text put back becomes the next older cut, round the ring. */
  private yankPop(): void {
    const last = this.lastYank;
    if (!last || last.text !== this.text || last.cursor !== this.cursor || this.killRing.length < 2) return;
    this.ringAt = (this.ringAt + 1) % this.killRing.length;
    this.yank(this.killRing[this.ringAt] as string, last.yanked.length);
  }

  /** Ctrl-T: the characters on either side of the cursor swap, and the cursor moves past them (at the end: the last two). */
  private transpose(): void {
    if (this.cursor === 0 || [...this.text].length < 2) return;
    if (this.cursor === this.text.length) this.cursor -= this.charBefore().length;
    const before = this.charBefore();
    const after = this.charAfter();
    const start = this.cursor - before.length;
    this.text = this.text.slice(0, start) + after + before + this.text.slice(this.cursor + after.length);
    this.cursor = start + before.length + after.length;
  }

  private charBefore(): string {
    return [...this.text.slice(Math.max(0, this.cursor - 2), this.cursor)].at(-1) ?? "";
  }

  private charAfter(): string {
    return [...this.text.slice(this.cursor, this.cursor + 2)][0] ?? "";
  }

  /** Matched on the text before the cursor reversed, so the search does not grow with the line's length squared. */
  private wordBefore(): string {
    const reversed = [...this.text.slice(0, this.cursor)].reverse().join("");
    return (WORD_BEFORE.exec(reversed) as RegExpExecArray)[0];
  }

  private wordAfter(): string {
    return WORD_AFTER.exec(this.text.slice(this.cursor))?.[0] ?? "";
  }
}
