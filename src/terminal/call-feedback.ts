import type { ToolProgress } from "../agent/tool.ts";
import type { ServerLogEntry } from "../mcp/index.ts";
import { progressText } from "./progress-text.ts";
import { ServerLogLines } from "./server-log-lines.ts";
import { StatusLine, type StatusStream } from "./status-line.ts";

/**
 * What `mcp call` shows on stderr while a call runs: its progress on one line rewritten in place
 * (only on a terminal: a script's stderr gets no trail of updates), and a line for each server log
 * message at warning or worse (always: it may say why the call fails). stdout stays the result's.
 */
export class CallFeedback {
  private readonly status: StatusLine;
  private readonly logLines = new ServerLogLines();

  constructor(stream: StatusStream = process.stderr) {
    this.status = new StatusLine(stream);
  }

  progress(update: ToolProgress): void {
    this.status.show(progressText(update));
  }

  log(entry: ServerLogEntry): void {
    const line = this.logLines.lineFor(entry);
    if (line !== undefined) this.status.printAbove(line);
  }

  /** A line of cat-code's own (a declined question, already sanitized), above the progress line. */
  note(line: string): void {
    this.status.printAbove(line);
  }

  /** Erases the progress line: called before the result or an error is printed. */
  done(): void {
    this.status.clear();
  }
}
