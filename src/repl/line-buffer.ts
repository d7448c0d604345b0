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
  | "transpose";

/** The word before the cursor, read backwards: blanks, then one run of word or of other characters (as readline moves). */
const WORD_BEFORE = /^\s*(?:[^\w\s]+|\w+)?/;
/** The word after the cursor: one run of blanks, word or other characters, and the blanks after it. */
const WORD_AFTER = /^(?:\s+|[^\w\s]+|\w+)\s*/;

/**
 * The line being edited: its text, the cursor, and the text last cut (Ctrl-U, Ctrl-K, Ctrl-W) for
 * Ctrl-Y. Pure: no terminal, so every edit is a unit test. The cursor is an index into the text
 * and moves by whole code points (an emoji is one step).
 */
export class LineBuffer {
  text = "";
  cursor = 0;
  private killed = "";

  /** Replaces the line (a recalled history entry), the cursor at its end. */
  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Applies one edit; false when it changed nothing (the cursor at an end already). */
  apply(action: EditAction): boolean {
    const before = { text: this.text, cursor: this.cursor };
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
        this.insert(this.killed);
        break;
      case "transpose":
        this.transpose();
        break;
    }
    return this.text !== before.text || this.cursor !== before.cursor;
  }

  private cut(from: number, to: number, keep: boolean): void {
    if (from >= to) return;
    if (keep) this.killed = this.text.slice(from, to);
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
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
