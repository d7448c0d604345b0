import type { AgentObserver, RetryNotice, ToolCall } from "../agent/agent-observer.ts";
import type { ToolProgress, ToolResult } from "../agent/tool.ts";
import { progressText } from "../terminal/progress-text.ts";
import type { StatusLine } from "../terminal/status-line.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { formatToolCall, plainStyle, type Style } from "./tool-call-line.ts";

export interface TextSink {
  write(text: string): unknown;
}

/**
 * Shows one run in the terminal: the model's text as it streams, a line per tool call, a line per
 * retry. It remembers whether the cursor is mid-line, so whatever comes next starts on its own line.
 * With a live status line (a terminal), a running tool's progress is shown on it in place, and
 * erased before anything else is written.
 */
export class TurnRenderer implements AgentObserver {
  private midLine = false;
  /** Lines held back while a question has the terminal (see hold); undefined when none is open. */
  private held: string[] | undefined;

  constructor(
    private readonly text: TextSink | undefined,
    private readonly info: TextSink,
    private readonly style: Style = plainStyle,
    private readonly status?: StatusLine,
  ) {}

  onText(delta: string): void {
    if (!this.text || delta === "") return;
    this.status?.clear();
    // The model's text is shown as text: no escape sequence of its own reaches the terminal.
    const safe = sanitizeForTerminal(delta, { keepNewlines: true });
    this.text.write(safe);
    this.midLine = !safe.endsWith("\n");
  }

  /** `⏺ mcp__idx__index 3/10 indexing…`, rewritten with each update of whichever call reported last. */
  onToolProgress(call: ToolCall, progress: ToolProgress): void {
    // A question owns the line the status would rewrite; the next update after it shows again.
    if (!this.status?.isLive || this.held) return;
    // Streamed text that did not end its line would be erased with the status line.
    if (this.midLine) this.text?.write("\n");
    this.midLine = false;
    this.status.show(`⏺ ${sanitizeForTerminal(call.name)} ${progressText(progress)}`, this.style.dim);
  }

  onToolResult(call: ToolCall, result: ToolResult): void {
    this.writeInfo(formatToolCall(call, result, this.style));
  }

  onRetry(notice: RetryNotice): void {
    const seconds = (notice.delayMs / 1000).toFixed(1);
    // The reason quotes the API's answer: shown as text, like everything else from outside.
    this.writeInfo(this.style.dim(`⎿ ${sanitizeForTerminal(notice.error.reason)}; retrying in ${seconds}s (${notice.retry}/${notice.maxRetries})`));
  }

  /** A line of news during the run (a server's warning), on its own line. The caller sanitizes it. */
  notice(line: string): void {
    this.writeInfo(line);
  }

  /**
   * A question (permission, a server's form) takes the terminal: the status line is erased and
   * stays off, and lines of the run (another tool's result, a server's warning) wait until
   * `release`, so nothing is written between the question and its answer.
   */
  hold(): void {
    this.endLine();
    this.held ??= [];
  }

  release(): void {
    const lines = this.held ?? [];
    this.held = undefined;
    for (const line of lines) this.writeInfo(line);
  }

  private writeInfo(line: string): void {
    if (this.held) {
      this.held.push(line);
      return;
    }
    this.endLine();
    this.info.write(`${line}\n`);
  }

  /** Ends a line of streamed text and erases the status line, before a question, a notice or the next prompt. */
  endLine(): void {
    this.status?.clear();
    if (this.midLine) this.text?.write("\n");
    this.midLine = false;
  }
}
