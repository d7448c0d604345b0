import { TextLineSplitter } from "./text-line-splitter.ts";

const MAX_LINE_CHARS = 500;

/**
 * Keeps the last lines a server wrote to stderr, for error messages. Bounded in lines and in line
 * length, so a server that floods stderr costs a fixed amount of memory.
 */
export class StderrRing {
  private readonly lines: string[] = [];
  private readonly splitter = new TextLineSplitter();

  constructor(private readonly capacity = 50) {}

  push(chunk: Uint8Array): void {
    this.splitter.push(chunk, (line) => this.add(line));
    // A line with no newline must not grow without bound either.
    if (this.splitter.pendingLength > MAX_LINE_CHARS * 4) this.splitter.finish((line) => this.add(line));
  }

  /** Takes in an unterminated last line once the stream has ended. */
  end(): void {
    this.splitter.finish((line) => this.add(line));
  }

  /** The last `count` non-empty lines, oldest first. */
  tail(count = this.capacity): string[] {
    return this.lines.slice(-count);
  }

  private add(line: string): void {
    const text = line.trimEnd();
    if (text === "") return;
    this.lines.push(text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text);
    if (this.lines.length > this.capacity) this.lines.shift();
  }
}
