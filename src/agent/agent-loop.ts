import type Anthropic from "@anthropic-ai/sdk";
import { APIUserAbortError } from "@anthropic-ai/sdk";
import type { Message, Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages";
import { toAgentError } from "./agent-error.ts";
import type { AgentObserver, ToolCall } from "./agent-observer.ts";
import { Conversation } from "./conversation.ts";
import type { PermissionGate } from "./permission.ts";
import type { PromptBlock } from "./prompt-blocks.ts";
import { sleep } from "../system/timers.ts";
import { DEFAULT_RETRY_POLICY, retriesFor, retryDelayMs, type RetryPolicy } from "./retry-policy.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import { runToolCalls } from "./tool-runner.ts";
import { isPlainObject } from "../system/plain-object.ts";

export const DEFAULT_MAX_TURNS = 50;
export const DEFAULT_MAX_TOKENS = 16_000;

export interface AgentLoopOptions {
  client: Anthropic;
  model: string;
  /** Read at every request, so tools registered while the conversation runs (MCP) are seen. */
  registry: ToolRegistry;
  permissions: PermissionGate;
  system?: string;
  /** Model requests allowed for one prompt; a runaway tool loop stops here. */
  maxTurns?: number;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
}

export interface RunOptions {
  /** Aborting cancels the run: the stream is closed and running tools get the signal. */
  signal?: AbortSignal;
  observer?: AgentObserver;
}

/** How a run ended. An API failure is not among them: that throws an AgentError. */
export type RunOutcome =
  | { status: "done"; text: string; stopReason: string; requests: number }
  | { status: "cancelled"; requests: number }
  /** The user declined a tool call (a "stop" decision): the turn ends, and the REPL asks what to do instead. */
  | { status: "declined"; requests: number }
  | { status: "max_turns"; text: string; requests: number };

/**
 * The agent: sends the conversation to the model, streams the answer, runs the tools it asks for,
 * answers with their results, and goes on until the model ends its turn. It sees only Tools in a
 * registry and cannot tell a built-in tool from an MCP one.
 */
export class AgentLoop {
  readonly conversation = new Conversation();
  private readonly retry: RetryPolicy;

  constructor(private readonly options: AgentLoopOptions) {
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  get model(): string {
    return this.options.model;
  }

  /** Runs one prompt: typed text, or blocks (text and images) that become the user message's content. */
  async run(prompt: string | PromptBlock[], { signal, observer }: RunOptions = {}): Promise<RunOutcome> {
    if (typeof prompt === "string") this.conversation.addUserText(prompt);
    else this.conversation.addUserBlocks(prompt);
    const maxTurns = this.options.maxTurns ?? DEFAULT_MAX_TURNS;
    let text = "";
    for (let request = 1; request <= maxTurns; request++) {
      observer?.onModelRequest?.(request);
      const message = await this.request(signal, observer);
      if (!message) return { status: "cancelled", requests: request };
      this.conversation.addAssistant(message.content);
      text = textOf(message);

      const calls = toolCalls(message);
      if (calls.length === 0) return { status: "done", text, stopReason: message.stop_reason ?? "end_turn", requests: request };
      // Results are recorded even when cancelled, so every tool_use stays answered.
      const results = await runToolCalls(calls, { registry: this.options.registry, permissions: this.options.permissions, signal, observer });
      this.conversation.addToolResults(results);
      if (signal?.aborted) return { status: "cancelled", requests: request };
    }
    return { status: "max_turns", text, requests: maxTurns };
  }

  /** One model request with retries; undefined when cancelled. */
  private async request(signal: AbortSignal | undefined, observer: AgentObserver | undefined): Promise<Message | undefined> {
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) return undefined;
      const stream = this.options.client.messages.stream(
        {
          model: this.options.model,
          max_tokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(this.options.system ? { system: this.options.system } : {}),
          tools: this.apiTools(),
          messages: this.conversation.snapshot(),
        },
        { signal, maxRetries: 0 },
      );
      if (observer?.onText) stream.on("text", (delta) => observer.onText?.(delta));
      if (observer?.onTextBlockEnd) stream.on("contentBlock", (block) => block.type === "text" && observer.onTextBlockEnd?.());
      try {
        return await stream.finalMessage();
      } catch (error) {
        if (signal?.aborted || error instanceof APIUserAbortError) return undefined;
        const maxRetries = retriesFor(error, this.retry);
        if (attempt > maxRetries) throw toAgentError(error, attempt);
        const delayMs = retryDelayMs(error, attempt, this.retry);
        observer?.onRetry?.({ error: toAgentError(error, attempt), retry: attempt, maxRetries, delayMs });
        if (!(await sleep(delayMs, signal))) return undefined;
      }
    }
  }

  private apiTools(): ApiTool[] {
    return this.options.registry.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: "object", ...tool.inputSchema } as ApiTool.InputSchema,
    }));
  }
}

function textOf(message: Message): string {
  return message.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("")
    .trim();
}

function toolCalls(message: Message): ToolCall[] {
  return message.content.flatMap((block) =>
    block.type === "tool_use"
      ? [{ id: block.id, name: block.name, input: isPlainObject(block.input) ? block.input : {} }]
      : [],
  );
}
