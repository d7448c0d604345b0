import type { AgentObserver, CompactionNotice, RetryNotice, ToolCall } from "../agent/agent-observer.ts";
import type { ToolProgress, ToolResult } from "../agent/tool.ts";
import { describeCut, type OutputCut } from "../agent/tools/output-limit.ts";
import { promptTokens, type TokenUsage } from "../agent/usage.ts";
import type { Clock } from "../system/clock.ts";
import { AnswerStream, plainFormat, type TextFormat } from "../terminal/answer-stream.ts";
import { progressText } from "../terminal/progress-text.ts";
import type { StatusLine } from "../terminal/status-line.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { wrapIndented } from "../terminal/text-wrap.ts";
import { WorkStatus } from "../terminal/work-status.ts";
import { formatToolCall, formatToolResult, formatToolStart, plainStyle, type Style } from "./tool-call-line.ts";

export interface TextSink {
  write(text: string): unknown;
}

export interface TurnDisplayOptions {
  /** How the answer is shown: Markdown blocks (markdownFormat) or plain lines (the default). */
  format?: TextFormat;
  /** The spinner's and the elapsed seconds' clock; tests pass a fake one. */
  clock?: Clock;
}

/**
 * Shows one run in the terminal: the model's answer a finished line or Markdown block at a time
 * (AnswerStream), a line per tool call, a line per retry, thinking folded into one line. With a live
 * status line (a terminal), a line at the bottom says what is going on while work happens (WorkStatus),
 * erased before anything else is written; a tool's `⏺` line is shown when it starts and completed
 * with its result when it ends. Without one (a pipe, print mode's stderr), each tool call is one
 * line once its result is in.
 */
export class TurnRenderer implements AgentObserver {
  /** Lines held back while a question has the terminal (see hold); undefined when none is open. */
  private held: string[] | undefined;
  private readonly answer: AnswerStream | undefined;
  private readonly work: WorkStatus | undefined;
  /** Between the first request and endLine: the status line has something to say. */
  private active = false;
  /** Thinking's lines so far, as `trim().split("\n")` counts them: up to its last non-blank character; 0 while all blank. */
  private thinkingLines = 0;
  /** Line breaks after thinking's last non-blank character: they count once more text follows. */
  private thinkingBreaks = 0;
  /** The tool start line written last, if nothing came after it: its result can complete it in place. */
  private lastStart: { id: string; width: number } | undefined;
  /** Calls whose start line was shown and whose result was not yet. */
  private readonly started = new Set<string>();
  /** Outputs cut for the model, by call id, said under the call's result line. */
  private readonly cuts = new Map<string, OutputCut>();

  constructor(
    private readonly text: TextSink | undefined,
    private readonly info: TextSink,
    private readonly style: Style = plainStyle,
    private readonly status?: StatusLine,
    display: TurnDisplayOptions = {},
  ) {
    const live = status?.isLive === true;
    this.work = status && live ? new WorkStatus(status, { clock: display.clock, paint: style.dim }) : undefined;
    const format = display.format ?? plainFormat(live ? () => status.columns : undefined);
    this.answer = text && new AnswerStream((chunk) => this.writeText(chunk), format, () => this.writeInfo(style.dim("⎿ (the retried answer differs; here it is whole)")));
  }

  onModelRequest(): void {
    this.endAnswer();
    this.answer?.reset();
    this.active = true;
    this.work?.set("thinking");
    this.showWork();
  }

  onThinking(delta: string): void {
    // Counted as it comes, not kept: a long thought is thousands of deltas.
    const body = delta.trimEnd();
    if (body !== "") {
      this.thinkingLines += this.thinkingLines === 0 ? 1 + breaks(body.trimStart()) : this.thinkingBreaks + breaks(body);
      this.thinkingBreaks = 0;
    }
    if (this.thinkingLines > 0) this.thinkingBreaks += breaks(delta.slice(body.length));
    this.work?.set(`thinking (${this.thinkingLines} lines)`);
  }

  onText(delta: string): void {
    if (!this.answer || delta === "") return;
    this.endThinking();
    this.work?.set("writing");
    this.answer.push(delta);
  }

  /** A text block of the answer is whole: its last Markdown block (or line) is finished too. */
  onTextBlockEnd(): void {
    this.endAnswer();
  }

  onToolStart(call: ToolCall): void {
    this.endAnswer();
    this.work?.set(`running ${sanitizeForTerminal(call.name)}`);
    // Only a terminal sees the call start; elsewhere the one line with the result says it all.
    if (!this.work) return;
    const line = formatToolStart(call, this.style);
    this.started.add(call.id);
    this.writeInfo(line);
    if (!this.held) this.lastStart = { id: call.id, width: Bun.stringWidth(Bun.stripANSI(line)) };
  }

  /** `⠹ running mcp__idx__index 3/10 indexing…`, rewritten with each update of whichever call reported last. */
  onToolProgress(call: ToolCall, progress: ToolProgress): void {
    if (!this.work) return;
    this.work.set(`running ${sanitizeForTerminal(call.name)}`, progressText(progress));
  }

  /** Said under the call's result line (which comes next): the model got only the head and tail. */
  onToolOutputCut(call: ToolCall, cut: OutputCut): void {
    this.cuts.set(call.id, cut);
  }

  onToolResult(call: ToolCall, result: ToolResult): void {
    this.showResult(call, result);
    const cut = this.cuts.get(call.id);
    this.cuts.delete(call.id);
    // The path is under the user's home, which may be named anything: shown as text.
    if (cut) this.writeInfo(this.style.dim(`  ${sanitizeForTerminal(describeCut(call.name, cut))}`));
  }

  private showResult(call: ToolCall, result: ToolResult): void {
    const started = this.started.delete(call.id);
    const start = this.lastStart;
    const columns = this.status?.columns ?? 0;
    if (this.work && start?.id === call.id && start.width < columns && !this.held) {
      // Nothing was written since the call's start line: it becomes the line with the result.
      this.lastStart = undefined;
      this.work.hide();
      this.status?.replaceLineAbove(this.fit(formatToolCall(call, result, this.style)));
      this.showWork();
      return;
    }
    // A call that never started (declined, cancelled, unknown) has no start line to refer to.
    this.writeInfo(started ? formatToolResult(call, result, this.style) : formatToolCall(call, result, this.style));
  }

  onRetry(notice: RetryNotice): void {
    this.answer?.retry();
    this.thinkingLines = 0;
    this.thinkingBreaks = 0;
    const seconds = (notice.delayMs / 1000).toFixed(1);
    // The reason quotes the API's answer: shown as text, like everything else from outside.
    this.writeInfo(this.style.dim(`⎿ ${sanitizeForTerminal(notice.error.reason)}; retrying in ${seconds}s (${notice.retry}/${notice.maxRetries})`));
    this.work?.retryIn(notice.delayMs);
  }

  onUsage(usage: TokenUsage): void {
    this.work?.addTokens(promptTokens(usage), usage.output);
  }

  onCompaction(notice: CompactionNotice): void {
    const why = { manual: "/compact", auto: "near the context window", "too-long": "the prompt was too long" }[notice.reason];
    this.writeInfo(this.style.dim(`✻ Conversation compacted (${why}): ${notice.before} messages → ${notice.after}`));
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
    // The question writes lines of its own: a tool's start line is no longer the last line.
    this.lastStart = undefined;
    this.endAnswer();
    this.endThinking();
    this.work?.hide();
    this.held ??= [];
  }

  release(): void {
    const lines = this.held ?? [];
    this.held = undefined;
    for (const line of lines) this.writeInfo(line);
    this.showWork();
  }

  /** The run is over (or a question, a notice or the next prompt needs the terminal): the answer's last piece, the status line erased. */
  endLine(): void {
    this.endAnswer();
    this.endThinking();
    this.active = false;
    this.work?.hide();
  }

  private endAnswer(): void {
    this.answer?.end();
  }

  /** Thinking is shown folded: one dim line once it is over, never its text. */
  private endThinking(): void {
    const lines = this.thinkingLines;
    if (lines === 0) return;
    this.thinkingLines = 0;
    this.thinkingBreaks = 0;
    this.writeInfo(this.style.dim(`✻ Thought for ${lines} line${lines === 1 ? "" : "s"}`));
  }

  private writeText(chunk: string): void {
    this.lastStart = undefined;
    this.work?.hide();
    this.text?.write(chunk);
    this.showWork();
  }

  private writeInfo(line: string): void {
    if (this.held) {
      this.held.push(line);
      return;
    }
    this.lastStart = undefined;
    this.work?.hide();
    this.info.write(`${this.fit(line)}\n`);
    this.showWork();
  }

  /**
   * At a terminal, lines wider than the window (a tool's arguments, a server's warning) wrapped
   * between words, their next rows indented under their text: the terminal would cut words in two.
   * The width is read now, so after a resize what is written next fits the new one.
   */
  private fit(text: string): string {
    const columns = this.work && this.status ? this.status.columns - 1 : undefined;
    if (columns === undefined || Bun.stringWidth(text) <= columns) return text;
    return text
      .split("\n")
      .flatMap((line) => {
        const own = /^ */.exec(line)?.[0] ?? "";
        return wrapIndented(line.slice(own.length), columns, own, `${own}  `);
      })
      .join("\n");
  }

  private showWork(): void {
    if (this.active && !this.held) this.work?.show();
  }
}

/** How many line breaks (`\n`) `text` has. */
function breaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
