import { commandFor } from "./key-bindings.ts";
import type { LineHistory } from "./line-history.ts";
import type { KeyToken } from "./terminal-keys.ts";

/** Keys that leave the search with the line as it was: Esc (once or twice), Ctrl-G (readline's abort). Esc also closes the live menu. */
export const LEAVE_SEARCH = new Set(["\u001b", "\u001b\u001b", "\u0007"]);

/** What the search shows: the prompt in its place, the line, and where the cursor stands in it. */
export interface SearchView {
  prompt: string;
  text: string;
  cursor: number;
}

/**
 * Ctrl-R at the prompt, as readline's reverse-i-search and Claude Code's: what is typed narrows to
 * the newest earlier line containing it, Ctrl-R again goes to the next older one, Backspace widens.
 * The line typed before the search is kept to be put back (Esc, Ctrl-G, Ctrl-C). Pure: the line
 * editor draws `view()` and does what `key` says.
 */
export class HistorySearch {
  private query = "";
  /** The history index of the line shown; undefined before anything matched. */
  private at: number | undefined;
  private failed = false;

  constructor(
    private readonly history: LineHistory,
    /** The line as it was when Ctrl-R was pressed. */
    readonly original: { text: string; cursor: number },
  ) {}

  /**
   * A key during the search: text and Backspace change what is searched for, Ctrl-R goes older
   * ("searching"); Esc or Ctrl-G leave the line as it was ("leave"); Enter takes the line found
   * ("take"); any other key takes it and then acts on it ("take-then-act": an arrow, Ctrl-A), as in readline.
   */
  key(token: KeyToken): "searching" | "leave" | "take" | "take-then-act" {
    if (token.kind === "text" || token.kind === "paste") {
      this.type(token.text);
      return "searching";
    }
    const sequence = token.kind === "key" ? token.sequence : "";
    const command = commandFor(sequence);
    if (command === "search-history") this.older();
    else if (command === "backspace") this.backspace();
    else if (LEAVE_SEARCH.has(sequence)) return "leave";
    else return command === "enter" ? "take" : "take-then-act";
    return "searching";
  }

  /** Typed text: the query grows, and the search looks again from the line shown (it may still match). */
  type(text: string): void {
    this.query += text.replace(/[\r\n]+/g, " ");
    this.find(this.at, undefined);
  }

  /** Backspace: the query loses its last character and the search starts again from the newest line. */
  backspace(): void {
    this.query = [...this.query].slice(0, -1).join("");
    this.at = undefined;
    this.failed = false;
    if (this.query) this.find(undefined, undefined);
  }

  /** Ctrl-R again: the next older line that matches; at the oldest, the search says it failed and stays. */
  older(): void {
    if (this.at === undefined && !this.query) return;
    this.find(this.at === undefined ? undefined : this.at - 1, this.match);
  }

  /** The line the search stands on; undefined before anything matched. */
  get match(): string | undefined {
    return this.at === undefined ? undefined : this.history.entry(this.at);
  }

  view(): SearchView {
    const prompt = `(${this.failed ? "failed " : ""}reverse-i-search)\`${this.query}': `;
    const match = this.match;
    if (match === undefined) return { prompt, text: this.original.text, cursor: this.original.cursor };
    const folded = this.query === this.query.toLowerCase();
    const found = (folded ? match.toLowerCase() : match).indexOf(this.query);
    return { prompt, text: match, cursor: Math.max(0, found) };
  }

  private find(from: number | undefined, skip: string | undefined): void {
    const index = this.history.search(this.query, from, skip);
    this.failed = index === -1;
    if (index !== -1) this.at = index;
  }
}
