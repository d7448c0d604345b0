import type { ContentBlockParam, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ConversationChange } from "../agent/conversation.ts";
import type { TokenUsage } from "../agent/usage.ts";
import { printRaw } from "../terminal/output.ts";
import { jsonForTerminal } from "../terminal/terminal-json.ts";

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How a print-mode run ended, for `--output-format json` and stream-json's last line. */
export interface PrintResult {
  /** `success`, `error_max_turns`, `error_during_execution`. */
  subtype: string;
  isError: boolean;
  /** The final answer, or the error's message. */
  result: string;
  usage: TokenUsage;
  /** null when a model used has no known price. */
  costUsd: number | null;
  conversationId: string;
  numTurns: number;
  durationMs: number;
}

/** The result as one JSON object; usage in the Messages API's own names, which scripts already know. */
export function resultObject(result: PrintResult): Record<string, unknown> {
  return {
    type: "result",
    subtype: result.subtype,
    is_error: result.isError,
    result: result.result,
    usage: {
      input_tokens: result.usage.input,
      output_tokens: result.usage.output,
      cache_read_input_tokens: result.usage.cacheRead,
      cache_creation_input_tokens: result.usage.cacheWrite,
    },
    cost_usd: result.costUsd,
    session_id: result.conversationId,
    num_turns: result.numTurns,
    duration_ms: result.durationMs,
  };
}

export function writeJsonLine(value: unknown): Promise<void> {
  return printRaw(`${jsonForTerminal(value)}\n`);
}

/**
 * `--output-format stream-json`: one JSON object per line as the run goes. `system`/`init` first
 * (session, model, tools), then each message the conversation gains: the model's (`assistant`:
 * its text and tool_use blocks) and the tool results (`user`: tool_result blocks), then `result`.
 * The prompt itself is not repeated. Lines are written in order: each waits for the one before.
 */
export class StreamJsonEvents {
  private queue: Promise<void> = Promise.resolve();
  private promptSeen = false;

  constructor(private readonly conversationId: string) {}

  init(details: { model: string; cwd: string; tools: string[]; servers: Array<{ name: string; status: string }> }): void {
    this.emit({ type: "system", subtype: "init", session_id: this.conversationId, model: details.model, cwd: details.cwd, tools: details.tools, mcp_servers: details.servers });
  }

  change(change: ConversationChange): void {
    if (change.kind === "reset") return;
    const message = change.message;
    if (message.role === "assistant") {
      this.emit({ type: "assistant", session_id: this.conversationId, message: outward(message) });
      return;
    }
    const results = blocksOf(message).filter((block) => block.type === "tool_result");
    if (!this.promptSeen && results.length === 0) {
      this.promptSeen = true;
      return;
    }
    if (results.length) this.emit({ type: "user", session_id: this.conversationId, message: { role: "user", content: results } });
  }

  /** Writes the last line; resolves once every line is out. */
  async result(result: PrintResult): Promise<void> {
    this.emit(resultObject(result));
    await this.queue;
  }

  private emit(event: Record<string, unknown>): void {
    this.queue = this.queue.then(() => writeJsonLine(event));
  }
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** Thinking stays out of the stream: its signature is for the API, not for a script. */
function outward(message: MessageParam): { role: string; content: ContentBlockParam[] } {
  return { role: message.role, content: blocksOf(message).filter((block) => block.type !== "thinking" && block.type !== "redacted_thinking") };
}
