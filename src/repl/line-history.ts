/** Lines kept for Up and Down, as readline kept them. */
const KEPT_LINES = 1000;

/**
 * The prompt's earlier lines for Up and Down: the history file's lines, then those entered in this
 * session (a line entered again moves to the newest place). Up with text on the line looks only at
 * the lines that start with it; Down past the newest gives that text back. Answers to questions
 * never come here: the reader adds only what the prompt sent. Pure, so navigation is a unit test.
 */
export class LineHistory {
  /** Oldest first. */
  private readonly entries: string[];
  /** While Up and Down navigate: the entry shown, and the text that was on the line before. */
  private at: { index: number; draft: string } | undefined;

  constructor(entries: readonly string[] = [], private readonly limit = KEPT_LINES) {
    this.entries = entries.slice(-limit);
  }

  add(line: string): void {
    this.at = undefined;
    if (line.trim() === "") return;
    const index = this.entries.lastIndexOf(line);
    if (index !== -1) this.entries.splice(index, 1);
    this.entries.push(line);
    if (this.entries.length > this.limit) this.entries.shift();
  }

  /** Up: the next older line that starts with the text typed before navigating; undefined when there is none. */
  older(current: string): string | undefined {
    this.at ??= { index: this.entries.length, draft: current };
    for (let i = this.at.index - 1; i >= 0; i--) {
      const entry = this.entries[i] as string;
      if (!entry.startsWith(this.at.draft) || entry === current) continue;
      this.at.index = i;
      return entry;
    }
    return undefined;
  }

  /** Down: the next newer such line; past the newest, the text typed before navigating. */
  newer(current: string): string | undefined {
    if (!this.at) return undefined;
    for (let i = this.at.index + 1; i < this.entries.length; i++) {
      const entry = this.entries[i] as string;
      if (!entry.startsWith(this.at.draft) || entry === current) continue;
      this.at.index = i;
      return entry;
    }
    const draft = this.at.draft;
    this.at = undefined;
    return draft;
  }

  /**
   * Ctrl-R: the index of the newest line at or before `from` that contains `query` (any case when
   * the query is all lower case, as Claude Code's search), skipping `skip` (the line already shown);
   * -1 when there is none. `from` past the end starts at the newest line.
   */
  search(query: string, from = this.entries.length - 1, skip?: string): number {
    const folded = query === query.toLowerCase();
    for (let i = Math.min(from, this.entries.length - 1); i >= 0; i--) {
      const entry = this.entries[i] as string;
      if (entry === skip) continue;
      if ((folded ? entry.toLowerCase() : entry).includes(query)) return i;
    }
    return -1;
  }

  /** The line at `index` (from search). */
  entry(index: number): string | undefined {
    return this.entries[index];
  }

  /** A new line is being edited: Up starts again from the newest. */
  restart(): void {
    this.at = undefined;
  }
}
