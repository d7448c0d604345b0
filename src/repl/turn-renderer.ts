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
    if (!this.status?.isLive) return;
    // Streamed text that did not end its line would be erased with the status line.
    if (this.midLine) this.text?.write("\n");
    this.midLine = false;
    this.status.show(`⏺ ${sanitizeForTerminal(call.name)} ${progressText(progress)}`, this.style.dim);
  }

  onToolResult(call: ToolCall, result: ToolResult): void {
    this.endLine();
    this.info.write(`${formatToolCall(call, result, this.style)}\n`);
  }

  onRetry(notice: RetryNotice): void {
    this.endLine();
    const seconds = (notice.delayMs / 1000).toFixed(1);
    // The reason quotes the API's answer: shown as text, like everything else from outside.
    this.info.write(`${this.style.dim(`⎿ ${sanitizeForTerminal(notice.error.reason)}; retrying in ${seconds}s (${notice.retry}/${notice.maxRetries})`)}\n`);
  }

  /** A line of news during the run (a server's warning), on its own line. The caller sanitizes it. */
  notice(line: string): void {
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
