import { commonPrefix } from "./completion.ts";
import { commandFor } from "./key-bindings.ts";
import { LineBuffer } from "./line-buffer.ts";
import type { LineHistory } from "./line-history.ts";
import type { KeyToken } from "./terminal-keys.ts";

type Output = NodeJS.WritableStream & { columns?: number };

/**
 * Tab at a terminal: given the line up to the cursor, the candidates and the word they replace.
 * It must not reject (see createCompleter); a failure completes nothing.
 */
export type LineCompleter = (line: string) => Promise<[string[], string]>;

/** What the editor tells its reader. */
export interface EditorEvents {
  /** Enter: the line, and whether the newline key (Alt+Enter) asked for it to continue the message. */
  enter(line: string, newlineKey: boolean): void;
  /** Ctrl-D on an empty line: the reader decides (no answer, or the end). */
  ctrlDOnEmptyLine(): void;
  /** Ctrl-Z: the terminal goes back to the shell until `fg`. */
  suspend(): void;
}

/** Terminal columns: a tab stop is 8 (as readline counted), a wide character 2. */
const TAB_SIZE = 8;

/**
 * The prompt's line at a terminal: a LineBuffer edited by keys (KeyToken, see key-bindings.ts),
 * drawn after its prompt, wrapped at the terminal's width, with Up/Down from a LineHistory and Tab
 * from the read's completer. It is the one holder of what is typed: nothing else writes into it.
 * Tab behaves as readline's did: a single candidate or the candidates' common start is inserted;
 * a second Tab with nothing to insert lists them. Keys that arrive while a completer is busy wait
 * for its answer, so they apply in the order typed.
 */
export class LineEditor {
  private readonly buffer = new LineBuffer();
  private prompt = "";
  private complete: LineCompleter | undefined;
  /** Rows between the first row of the prompt and the cursor, as last drawn: where a redraw starts. */
  private cursorRow = 0;
  private previousWasTab = false;
  /** Keys typed while the completer works. */
  private waiting: KeyToken[] | undefined;
  /** Counts lines: a completer's late answer for an earlier line is dropped. */
  private generation = 0;
  /** A line is being edited (between start and stop): only then is the prompt on the screen to redraw. */
  private editing = false;
  private readonly onResize = () => this.editing && this.render();

  constructor(
    private readonly output: Output,
    private readonly history: LineHistory,
    private readonly events: EditorEvents,
  ) {
    output.on("resize", this.onResize);
  }

  /** The text typed so far on this line. */
  get line(): string {
    return this.buffer.text;
  }

  /** Starts a new line: shows `prompt` and `text` (typed ahead) after it, ready for keys. */
  start(prompt: string, text = "", complete?: LineCompleter): void {
    this.generation++;
    this.editing = true;
    this.waiting = undefined;
    this.prompt = prompt;
    this.complete = complete;
    this.previousWasTab = false;
    this.history.restart();
    this.buffer.reset(text);
    this.cursorRow = 0;
    this.render();
  }

  /** Same line, other prompt (the continuation of a message); keeps the completer. */
  restart(prompt: string): void {
    this.start(prompt, "", this.complete);
  }

  /** One key from the terminal while a line is being edited. */
  key(token: KeyToken): void {
    if (this.waiting) {
      this.waiting.push(token);
      return;
    }
    const wasTab = this.previousWasTab;
    this.previousWasTab = token.kind === "key" && token.sequence === "\t";
    switch (token.kind) {
      case "text":
      case "paste":
        return this.insert(token.text);
      case "newline":
        return this.enter(true);
      case "key":
        return this.command(token.sequence, wasTab);
    }
  }

  /**
   * Clears the line, keeping the prompt (Ctrl-C on a line with text). A Tab still waiting for its
   * completer is dropped with the keys typed after it: they belonged to the discarded line, and a
   * late answer must not land in the next one. Keys typed from now on start the new line.
   */
  clear(): void {
    this.generation++;
    this.waiting = undefined;
    this.previousWasTab = false;
    this.buffer.reset();
    if (this.editing) this.render();
  }

  /** Prints `text` above the prompt, which is drawn again below it with what was typed. */
  printAbove(text: string): void {
    this.output.write(`${this.toFirstRow()}\r\u001b[J${text}\n`);
    this.cursorRow = 0;
    this.render();
  }

  /** Draws the prompt and the line again (after the terminal was handed back, or cleared). */
  redraw(): void {
    this.cursorRow = 0;
    this.render();
  }

  /** No line is edited any more: a completer's late answer and the keys waiting for it are dropped. */
  stop(): void {
    this.generation++;
    this.editing = false;
    this.waiting = undefined;
  }

  close(): void {
    this.stop();
    this.output.off("resize", this.onResize);
  }

  private command(sequence: string, wasTab: boolean): void {
    const command = commandFor(sequence);
    switch (command) {
      case undefined:
        return;
      case "enter":
        return this.enter(false);
      case "complete":
        return void this.tab(wasTab);
      case "ctrl-d":
        if (this.buffer.text === "") return this.events.ctrlDOnEmptyLine();
        return this.edit("delete");
      case "older":
        return this.recall(this.history.older(this.buffer.text));
      case "newer":
        return this.recall(this.history.newer(this.buffer.text));
      case "clear-screen":
        this.output.write("\u001b[H\u001b[J");
        return this.redraw();
      case "suspend":
        return this.events.suspend();
      // TerminalInput takes it before the editor does, also while no line is read.
      case "toggle-todos":
        return;
      default:
        return this.edit(command);
    }
  }

  private edit(action: Parameters<LineBuffer["apply"]>[0]): void {
    if (this.buffer.apply(action)) this.render();
  }

  private recall(entry: string | undefined): void {
    if (entry === undefined) return;
    this.buffer.set(entry);
    this.render();
  }

  /** Typing at the end of the line writes only the text; anywhere else (or onto a new row) the line is drawn again. */
  private insert(text: string): void {
    const atEnd = this.buffer.cursor === this.buffer.text.length;
    const rowBefore = this.position(this.prompt + this.buffer.text).rows;
    this.buffer.insert(text);
    if (atEnd && this.position(this.prompt + this.buffer.text).rows === rowBefore) this.output.write(text);
    else this.render();
  }

  /** The cursor goes past the line's end and onto a new row; the line is the reader's. */
  private enter(newlineKey: boolean): void {
    if (this.buffer.apply("end")) this.render();
    this.output.write("\r\n");
    this.cursorRow = 0;
    const line = this.buffer.text;
    this.buffer.reset();
    this.events.enter(line, newlineKey);
  }

  private async tab(listIfStuck: boolean): Promise<void> {
    const complete = this.complete;
    if (!complete) return;
    const generation = this.generation;
    const waiting: KeyToken[] = (this.waiting = []);
    let answer: [string[], string];
    try {
      answer = await complete(this.buffer.text.slice(0, this.buffer.cursor));
    } catch {
      answer = [[], ""];
    }
    if (generation !== this.generation) return;
    this.waiting = undefined;
    this.applyCompletion(answer, listIfStuck);
    for (const token of waiting) this.key(token);
  }

  private applyCompletion([candidates, word]: [string[], string], listIfStuck: boolean): void {
    if (candidates.length === 0) return;
    const prefix = commonPrefix(candidates.filter((candidate) => candidate !== ""));
    if (prefix.startsWith(word) && prefix.length > word.length) return this.insert(prefix.slice(word.length));
    if (!word.startsWith(prefix)) {
      this.buffer.replaceBefore(word.length, prefix);
      return this.render();
    }
    if (!listIfStuck) return;
    this.output.write(`${this.toEndRow()}\r\n${candidateColumns(candidates, this.output.columns)}\r\n`);
    this.cursorRow = 0;
    this.render();
  }

  /** Clears what was drawn and draws the prompt and the line, the cursor where it is in the line. */
  private render(): void {
    const shown = this.prompt + this.buffer.text;
    const end = this.position(shown);
    const cursor = this.position(this.prompt + this.buffer.text.slice(0, this.buffer.cursor));
    let out = `${this.toFirstRow()}\u001b[1G\u001b[J${shown}`;
    // At the last column the terminal waits to wrap: a blank makes it take the new row now.
    if (end.cols === 0 && end.rows > 0) out += " ";
    if (cursor.rows !== end.rows || cursor.cols !== end.cols || end.cols === 0) {
      out += `\u001b[${cursor.cols + 1}G`;
      if (end.rows > cursor.rows) out += `\u001b[${end.rows - cursor.rows}A`;
    }
    this.output.write(out);
    this.cursorRow = cursor.rows;
  }

  private toFirstRow(): string {
    return this.cursorRow > 0 ? `\u001b[${this.cursorRow}A` : "";
  }

  /** From the cursor to the line's last row. */
  private toEndRow(): string {
    const rows = this.position(this.prompt + this.buffer.text).rows - this.cursorRow;
    return rows > 0 ? `\u001b[${rows}B` : "";
  }

  /** Where the terminal's cursor is after writing `text` from the first column: rows down, and the column. */
  private position(text: string): { rows: number; cols: number } {
    const columns = this.output.columns && this.output.columns > 0 ? this.output.columns : Infinity;
    let offset = 0;
    for (const char of Bun.stripANSI(text)) {
      if (char === "\t") {
        offset += TAB_SIZE - (offset % TAB_SIZE);
        continue;
      }
      const width = Bun.stringWidth(char);
      // A wide character does not split across rows: it starts the next one.
      if (width === 2 && (offset + 1) % columns === 0) offset++;
      offset += width;
    }
    if (columns === Infinity) return { rows: 0, cols: offset };
    const cols = offset % columns;
    return { rows: (offset - cols) / columns, cols };
  }
}

/** The candidates in columns across the terminal, as readline listed them. */
function candidateColumns(candidates: string[], columns: number | undefined): string {
  const widths = candidates.map((candidate) => Bun.stringWidth(candidate));
  const width = Math.max(...widths) + 2;
  const perRow = (columns && Math.floor(columns / width)) || 1;
  const rows: string[] = [];
  for (let i = 0; i < candidates.length; i += perRow) {
    const row = candidates.slice(i, i + perRow);
    rows.push(row.map((candidate, j) => (j < row.length - 1 ? candidate + " ".repeat(width - (widths[i + j] as number)) : candidate)).join(""));
  }
  return `${rows.join("\r\n")}\r\n`;
}
