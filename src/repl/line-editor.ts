import { candidateColumns } from "./completion.ts";
import { CompletionMenu, type MenuSource } from "./completion-menu.ts";
import { HistorySearch, LEAVE_SEARCH, type SearchView } from "./history-search.ts";
import { commandFor } from "./key-bindings.ts";
import { LineBuffer } from "./line-buffer.ts";
import { LineDrawing } from "./line-layout.ts";
import type { LineHistory } from "./line-history.ts";
import { TabCompletion, type LineCompleter } from "./tab-completion.ts";
import type { KeyToken } from "./terminal-keys.ts";

type Output = NodeJS.WritableStream & { columns?: number };

/** What the editor tells its reader. */
export interface EditorEvents {
  /** Enter: the line, and whether the newline key (Alt+Enter) asked for it to continue the message. */
  enter(line: string, newlineKey: boolean): void;
  /** Ctrl-D on an empty line: the reader decides (no answer, or the end). */
  ctrlDOnEmptyLine(): void;
  /** Ctrl-Z: the terminal goes back to the shell until `fg`. */
  suspend(): void;
  /** Shift+Tab: the next permission mode (the reader decides whether this read takes it). */
  cycleMode?(): void;
}

/**
 * The prompt's line at a terminal: a LineBuffer edited by keys (KeyToken, see key-bindings.ts),
 * drawn after its prompt, wrapped at the terminal's width, with Up/Down from a LineHistory and Tab
 * from the read's completer (tab-completion.ts: readline's rules; keys typed while it works wait for
 * its answer). It is the one holder of what is typed: nothing else writes into it. Ctrl-R searches
 * the history (history-search.ts); with a menu source, a live menu of commands or mentions is drawn
 * under the line (completion-menu.ts).
 */
export class LineEditor {
  private readonly buffer = new LineBuffer();
  private prompt = "";
  /** Single keys that answer at once on an empty line (a y/n question), without Enter. */
  private answerKeys: readonly string[] | undefined;
  /** Where the line is on the screen: every write of the prompt and the line goes through it. */
  private readonly drawing: LineDrawing;
  /** A line is being edited (between start and stop): only then is the prompt on the screen to redraw. */
  private editing = false;
  /** Ctrl-R's search while it runs: it is drawn in place of the prompt and the line. */
  private search: HistorySearch | undefined;
  /** The live menu of commands or mentions under the line, when the read has a menu source. */
  private readonly menu = new CompletionMenu(() => this.editing && !this.search && this.render());
  private readonly onResize = () => this.editing && this.render();
  private readonly tabs = new TabCompletion({
    beforeCursor: () => this.beforeCursor(),
    insert: (text) => {
      this.insert(text);
      this.menu.update(this.beforeCursor());
    },
    replaceBefore: (length, text) => {
      this.buffer.replaceBefore(length, text);
      this.render();
    },
    list: (candidates) => {
      // The menu under the line lists them already.
      if (this.menu.open) return;
      this.output.write(`${this.drawing.toEndRow(this.view())}\r\n${candidateColumns(candidates, this.output.columns)}\r\n`);
      this.drawing.freshRow();
      this.render();
    },
    replay: (token) => this.key(token),
  });

  constructor(
    private readonly output: Output,
    private readonly history: LineHistory,
    private readonly events: EditorEvents,
  ) {
    this.drawing = new LineDrawing(output);
    output.on("resize", this.onResize);
  }

  /** The text typed so far on this line. */
  get line(): string {
    return this.buffer.text;
  }

  /** Starts a new line: shows `prompt` and `text` (typed ahead) after it, ready for keys. */
  start(prompt: string, text = "", complete?: LineCompleter, menu?: MenuSource, answerKeys?: readonly string[]): void {
    this.tabs.start(complete);
    this.editing = true;
    this.prompt = prompt;
    this.answerKeys = answerKeys;
    this.menu.use(menu);
    this.search = undefined;
    this.history.restart();
    this.buffer.reset(text);
    this.drawing.freshRow();
    this.render();
    if (text) this.menu.update(text);
  }

  /** Same line, other prompt (the continuation of a message); keeps the completer, not the menu. */
  restart(prompt: string): void {
    this.start(prompt, "", this.tabs.completer);
  }

  /** Another prompt in front of the line being edited (the permission mode changed); what was typed stays. */
  setPrompt(prompt: string): void {
    if (!this.editing || prompt === this.prompt) return;
    this.prompt = prompt;
    this.render();
  }

  /** One key from the terminal while a line is being edited. */
  key(token: KeyToken): void {
    if (this.tabs.hold(token)) return;
    if (this.search) return this.searchKey(token);
    const wasTab = this.tabs.followsTab(token);
    switch (token.kind) {
      case "text":
        if (this.buffer.text === "" && this.answerKeys?.includes(token.text)) {
          this.insert(token.text);
          return this.enter(false);
        }
        this.insert(token.text);
        return this.menu.update(this.beforeCursor());
      case "paste":
        this.insert(token.text);
        return this.menu.update(this.beforeCursor());
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
    this.tabs.drop();
    this.search = undefined;
    this.menu.dismiss();
    this.buffer.reset();
    if (this.editing) this.render();
  }

  /** Ctrl-C during Ctrl-R's search: the search ends, the line as it was before it; false when no search ran. */
  cancelSearch(): boolean {
    if (!this.search) return false;
    this.endSearch(false);
    return true;
  }

  /** Prints `text` above the prompt, which is drawn again below it with what was typed. */
  printAbove(text: string): void {
    this.drawing.clearFor(text);
    this.render();
  }

  /** Draws the prompt and the line again (after the terminal was handed back, or cleared). */
  redraw(): void {
    this.drawing.freshRow();
    this.render();
  }

  /** No line is edited any more: a completer's late answer and the keys waiting for it are dropped. */
  stop(): void {
    this.tabs.drop();
    this.menu.dismiss();
    this.editing = false;
  }

  close(): void {
    this.stop();
    this.output.off("resize", this.onResize);
  }

  private command(sequence: string, wasTab: boolean): void {
    const command = commandFor(sequence);
    if (this.menu.open && this.menuKey(sequence, command)) return;
    switch (command) {
      case undefined:
        return;
      case "enter":
        return this.enter(false);
      case "complete":
        return void this.tabs.tab(wasTab);
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
      case "cycle-mode":
        return this.events.cycleMode?.();
      case "search-history":
        this.menu.dismiss();
        this.search = new HistorySearch(this.history, { text: this.buffer.text, cursor: this.buffer.cursor });
        return this.render();
      // TerminalInput takes it before the editor does, also while no line is read.
      case "toggle-todos":
        return;
      default:
        return this.edit(command);
    }
  }

  /** A key during Ctrl-R's search: HistorySearch says what it does. */
  private searchKey(token: KeyToken): void {
    const outcome = (this.search as HistorySearch).key(token);
    if (outcome === "searching") return this.render();
    this.endSearch(outcome !== "leave");
    if (outcome === "take-then-act") this.key(token);
  }

  private endSearch(accept: boolean): void {
    const found = this.search?.match;
    this.search = undefined;
    if (accept && found !== undefined) this.buffer.set(found);
    this.render();
  }

  /** What is drawn: the prompt and the line, or the search in their place. */
  private view(): SearchView {
    return this.search ? this.search.view() : { prompt: this.prompt, text: this.buffer.text, cursor: this.buffer.cursor };
  }

  /**
   * A key while the menu is open: Up and Down move its selection, Tab takes the item chosen with
   * them, Esc closes it. True when the key was the menu's; Tab with no choice made completes as before.
   */
  private menuKey(sequence: string, command: ReturnType<typeof commandFor>): boolean {
    if (command === "older" || command === "newer") {
      this.menu.move(command === "older" ? -1 : 1);
      this.render();
      return true;
    }
    if (LEAVE_SEARCH.has(sequence)) {
      this.menu.dismiss();
      this.render();
      return true;
    }
    const choice = command === "complete" && this.menu.chose ? this.menu.choice() : undefined;
    if (!choice) return false;
    this.menu.dismiss();
    this.buffer.replaceBefore(choice.word.length, choice.item.value);
    this.render();
    this.menu.update(this.beforeCursor());
    return true;
  }

  private edit(action: Parameters<LineBuffer["apply"]>[0]): void {
    const text = this.buffer.text;
    if (!this.buffer.apply(action)) return;
    this.render();
    // Only what changes the text asks the menu again: moving the cursor along a command leaves it.
    if (this.buffer.text !== text) this.menu.update(this.beforeCursor());
  }

  private beforeCursor(): string {
    return this.buffer.text.slice(0, this.buffer.cursor);
  }

  /** An earlier line recalled: the menu closes, so Up goes on through the history, not through a menu. */
  private recall(entry: string | undefined): void {
    if (entry === undefined) return;
    this.menu.dismiss();
    this.buffer.set(entry);
    this.render();
  }

  /** Typing at the end of the line writes only the text; anywhere else (or onto a new row) the line is drawn again. */
  private insert(text: string): void {
    const atEnd = this.buffer.cursor === this.buffer.text.length;
    const rowBefore = this.drawing.rows(this.prompt + this.buffer.text);
    this.buffer.insert(text);
    if (atEnd && this.drawing.rows(this.prompt + this.buffer.text) === rowBefore) this.output.write(text);
    else this.render();
  }

  /** The cursor goes past the line's end and onto a new row; the line is the reader's. */
  private enter(newlineKey: boolean): void {
    const menuShown = this.menu.dismiss();
    if (this.buffer.apply("end") || menuShown) this.render();
    this.output.write("\r\n");
    this.drawing.freshRow();
    const line = this.buffer.text;
    this.buffer.reset();
    this.events.enter(line, newlineKey);
  }

  /** Draws the view again, the menu's rows under it (none during Ctrl-R's search). */
  private render(): void {
    this.drawing.draw(this.view(), this.search ? [] : this.menu.rows(this.output.columns));
  }
}
