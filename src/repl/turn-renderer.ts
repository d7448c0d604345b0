import type { AgentObserver, RetryNotice, ToolCall } from "../agent/agent-observer.ts";
import type { ToolResult } from "../agent/tool.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { formatToolCall, plainStyle, type Style } from "./tool-call-line.ts";

export interface TextSink {
  write(text: string): unknown;
}

/**
 * Shows one run in the terminal: the model's text as it streams, a line per tool call, a line per
 * retry. It remembers whether the cursor is mid-line, so whatever comes next starts on its own line.
 */
export class TurnRenderer implements AgentObserver {
  private midLine = false;

  constructor(
    private readonly text: TextSink | undefined,
    private readonly info: TextSink,
    private readonly style: Style = plainStyle,
  ) {}

  onText(delta: string): void {
    if (!this.text || delta === "") return;
    // The model's text is shown as text: no escape sequence of its own reaches the terminal.
    const safe = sanitizeForTerminal(delta, { keepNewlines: true });
    this.text.write(safe);
    this.midLine = !safe.endsWith("\n");
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

  /** Ends a line of streamed text, before a question, a notice or the next prompt. */
  endLine(): void {
    if (this.midLine) this.text?.write("\n");
    this.midLine = false;
  }
}
