import { commonPrefix } from "./completion.ts";
import type { KeyToken } from "./terminal-keys.ts";

/**
 * Tab at a terminal: given the line up to the cursor, the candidates and the word they replace.
 * It must not reject (see createCompleter); a failure completes nothing.
 */
export type LineCompleter = (line: string) => Promise<[string[], string]>;

/** The line Tab completes (the LineEditor's): what it reads of it and does to it. */
export interface TabTarget {
  /** The line up to the cursor: what the completer is given. */
  beforeCursor(): string;
  /** Inserts at the cursor, as typing does. */
  insert(text: string): void;
  /** Replaces the `length` characters before the cursor with `text`. */
  replaceBefore(length: number, text: string): void;
  /** Lists the candidates under the line (a second Tab with nothing to insert), unless the menu shows them. */
  list(candidates: string[]): void;
  /** A key typed while the completer worked, now that its answer is in: applied in the order typed. */
  replay(token: KeyToken): void;
}

/**
 * Tab as readline's: a single candidate or the candidates' common start is inserted; a second Tab
 * with nothing to insert lists them. The completer may take a while (a server's completion): keys
 * typed meanwhile wait for its answer, and an answer for a line that is gone is dropped.
 */
export class TabCompletion {
  private complete: LineCompleter | undefined;
  /** Keys typed while the completer works. */
  private waiting: KeyToken[] | undefined;
  /** Counts lines: a completer's late answer for an earlier line is dropped. */
  private generation = 0;
  private previousWasTab = false;

  constructor(private readonly line: TabTarget) {}

  /** The completer of the read that starts (none: Tab does nothing). */
  get completer(): LineCompleter | undefined {
    return this.complete;
  }

  /** A new line, completed by `complete`; anything still awaited for the last one is dropped. */
  start(complete: LineCompleter | undefined): void {
    this.drop();
    this.complete = complete;
  }

  /** The line was cleared or is no longer edited: a late answer and the keys waiting for it go. */
  drop(): void {
    this.generation++;
    this.waiting = undefined;
    this.previousWasTab = false;
  }

  /** True when `token` must wait for the completer's answer: it is held, then replayed. */
  hold(token: KeyToken): boolean {
    if (!this.waiting) return false;
    this.waiting.push(token);
    return true;
  }

  /** Every key the line takes passes here; returns whether the one before it was Tab too. */
  followsTab(token: KeyToken): boolean {
    const wasTab = this.previousWasTab;
    this.previousWasTab = token.kind === "key" && token.sequence === "\t";
    return wasTab;
  }

  async tab(listIfStuck: boolean): Promise<void> {
    const complete = this.complete;
    if (!complete) return;
    const generation = this.generation;
    const waiting: KeyToken[] = (this.waiting = []);
    let answer: [string[], string];
    try {
      answer = await complete(this.line.beforeCursor());
    } catch {
      answer = [[], ""];
    }
    if (generation !== this.generation) return;
    this.waiting = undefined;
    this.apply(answer, listIfStuck);
    for (const token of waiting) this.line.replay(token);
  }

  private apply([candidates, word]: [string[], string], listIfStuck: boolean): void {
    if (candidates.length === 0) return;
    const prefix = commonPrefix(candidates.filter((candidate) => candidate !== ""));
    if (prefix.startsWith(word) && prefix.length > word.length) return this.line.insert(prefix.slice(word.length));
    if (!word.startsWith(prefix)) return this.line.replaceBefore(word.length, prefix);
    if (listIfStuck) this.line.list(candidates);
  }
}
