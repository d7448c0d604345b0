import { cutToColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** One row of the menu: what replaces the word being typed, and a line about it. */
export interface MenuItem {
  value: string;
  description: string;
}

/** What a menu source found for the line up to the cursor: the word it would replace, and the items. */
export interface MenuAnswer {
  word: string;
  items: MenuItem[];
}

/** Finds the menu for the line up to the cursor; undefined when the word there is not one it knows. */
export type MenuSource = (line: string) => Promise<MenuAnswer | undefined>;

/** Rows shown under the prompt at most; the selection scrolls through the rest. */
export const MENU_ROWS = 5;

/**
 * The live menu under the prompt while a slash command or an `@` mention is typed: the items a
 * source found, which one is selected (Up/Down move it, Tab takes it), and the rows to draw. The
 * line editor tells it of each change of the line (`update`) and draws `rows()` under the line when
 * told (`onChange`). Typing never waits for it: one question to the source at a time, the latest
 * line asked next, and an answer for a line no longer there is dropped.
 */
export class CompletionMenu {
  private answer: MenuAnswer | undefined;
  private selected = 0;
  /** True once Up or Down moved the selection: only then does Tab take it rather than complete as before. */
  chose = false;
  private source: MenuSource | undefined;
  /** Counts questions and dismissals: an answer is shown only if nothing happened since it was asked for. */
  private generation = 0;
  private busy = false;
  /** The line to ask about once the question in flight is answered. */
  private pending: string | undefined;

  constructor(private readonly onChange: () => void) {}

  /** The source for the line that starts now (none: no menu); what was shown goes. */
  use(source: MenuSource | undefined): void {
    this.source = source;
    this.dismiss();
  }

  /** The line up to the cursor changed: ask the source about it. */
  update(line: string): void {
    if (!this.source) return;
    const generation = ++this.generation;
    if (this.busy) {
      this.pending = line;
      return;
    }
    this.busy = true;
    this.source(line)
      .catch(() => undefined)
      .then((answer) => {
        this.busy = false;
        const next = this.pending;
        this.pending = undefined;
        if (next !== undefined) return this.update(next);
        if (generation === this.generation && this.show(answer)) this.onChange();
      });
  }

  /** Closes the menu (Esc, Enter, a new line) and drops answers on their way; true when it was open. */
  dismiss(): boolean {
    this.generation++;
    this.pending = undefined;
    return this.close();
  }

  get open(): boolean {
    return (this.answer?.items.length ?? 0) > 0;
  }

  /** A source's answer; the selection starts again at the first item. True when what is shown changed. */
  show(answer: MenuAnswer | undefined): boolean {
    const before = this.key();
    this.answer = answer && answer.items.length > 0 ? answer : undefined;
    if (this.key() !== before) {
      this.selected = 0;
      this.chose = false;
      return true;
    }
    return false;
  }

  close(): boolean {
    return this.show(undefined);
  }

  /** Up (-1) or Down (+1), wrapping round. */
  move(delta: number): void {
    const count = this.answer?.items.length ?? 0;
    if (count === 0) return;
    this.selected = (this.selected + delta + count) % count;
    this.chose = true;
  }

  /** The selected item and the word it replaces. */
  choice(): { item: MenuItem; word: string } | undefined {
    const item = this.answer?.items[this.selected];
    return item && this.answer ? { item, word: this.answer.word } : undefined;
  }

  /** The rows to draw, each cut to fit one terminal row; the selected one marked. */
  rows(columns: number | undefined): string[] {
    const items = this.answer?.items ?? [];
    if (items.length === 0) return [];
    const first = Math.min(Math.max(0, this.selected - MENU_ROWS + 1), Math.max(0, items.length - MENU_ROWS));
    const shown = items.slice(first, first + MENU_ROWS);
    const width = Math.min(40, Math.max(...shown.map((item) => Bun.stringWidth(item.value))));
    const room = Math.max(20, (columns && columns > 0 ? columns : 80) - 1);
    const rows = shown.map((item, index) => {
      const mark = first + index === this.selected ? "› " : "  ";
      const value = sanitizeForTerminal(item.value);
      const about = sanitizeForTerminal(item.description);
      const padded = value + " ".repeat(Math.max(0, width - Bun.stringWidth(value)));
      return cutToColumns(about ? `${mark}${padded}  ${about}` : `${mark}${value}`, room);
    });
    const more = items.length - shown.length;
    if (more > 0) rows.push(cutToColumns(`  (${items.length} in all: ↑↓ to move, Tab to take)`, room));
    return rows;
  }

  /** What is shown, to tell whether a new answer changes it. */
  private key(): string {
    return this.answer ? `${this.answer.word}\u0000${this.answer.items.map((item) => `${item.value}\u0001${item.description}`).join("\u0000")}` : "";
  }
}
