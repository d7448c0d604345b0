import type { AgentError } from "./agent-error.ts";
import type { ToolProgress, ToolResult } from "./tool.ts";
import type { OutputCut } from "./tools/output-limit.ts";
import type { TokenUsage } from "./usage.ts";

/** One tool_use block the model sent. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface RetryNotice {
  error: AgentError;
  /** 1-based number of the retry about to happen. */
  retry: number;
  maxRetries: number;
  delayMs: number;
}

/**
 * What a run shows as it goes. The loop calls these; the REPL renders them to the terminal and
 * print mode to stderr. Every method is optional.
 */
/** The conversation was replaced by a summary: by /compact, near the context window, or after "prompt is too long". */
export interface CompactionNotice {
  reason: "manual" | "auto" | "too-long";
  /** Messages before and after. */
  before: number;
  after: number;
}

export interface AgentObserver {
  /** A piece of the model's text, as it streams in. */
  onText?(delta: string): void;
  /** A text block of the answer is complete (the stream's content_block_stop): what came is whole. */
  onTextBlockEnd?(): void;
  /** A piece of the model's extended thinking, as it streams in (only with thinking on). */
  onThinking?(delta: string): void;
  /** A tool call is about to run (after its permission, if one was asked); its result comes through onToolResult. */
  onToolStart?(call: ToolCall): void;
  /** A model request finished: the tokens it used (the model's, for pricing). */
  onUsage?(usage: TokenUsage, model: string): void;
  /** The conversation was compacted; one line says so. */
  onCompaction?(notice: CompactionNotice): void;
  /** A model request is about to start (1-based within the run). */
  onModelRequest?(request: number): void;
  /** A running tool reported how far it has got; its result comes later through onToolResult. */
  onToolProgress?(call: ToolCall, progress: ToolProgress): void;
  onToolResult?(call: ToolCall, result: ToolResult): void;
  /** A tool's output went over its limit: the model got its head and tail; one line tells the user (before onToolResult). */
  onToolOutputCut?(call: ToolCall, cut: OutputCut): void;
  onRetry?(notice: RetryNotice): void;
}
