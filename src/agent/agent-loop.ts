import type Anthropic from "@anthropic-ai/sdk";
import { APIUserAbortError } from "@anthropic-ai/sdk";
import type { ContentBlock, Message, MessageParam, ThinkingConfigParam, ToolChoice } from "@anthropic-ai/sdk/resources/messages";
import { AgentError, toAgentError, unknownModelError } from "./agent-error.ts";
import type { AgentObserver, CompactionNotice, ToolCall } from "./agent-observer.ts";
import { AUTO_COMPACT_SHARE, compactedMessages, isPromptTooLong, requestSummary, splitForCompaction, SUMMARY_MAX_TOKENS } from "./compaction.ts";
import { Conversation } from "./conversation.ts";
import { contextWindowOf, modelInfo } from "./models.ts";
import { withCacheBreakpoints } from "./prompt-cache.ts";
import { RequestTools } from "./request-tools.ts";
import type { ToolSearchMode } from "./tool-search-mode.ts";
import { UsageMeter } from "./usage-meter.ts";
import { addUsage, emptyUsage, promptTokens, usageOf, type TokenUsage } from "./usage.ts";
import type { PermissionGate } from "./permission.ts";
import type { AgentHooks, HookHalt } from "./hooks/agent-hooks.ts";
import type { PromptBlock } from "./prompt-blocks.ts";
import { sleep } from "../system/timers.ts";
import { DEFAULT_RETRY_POLICY, retriesFor, retryDelayMs, type RetryPolicy } from "./retry-policy.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import { runToolCalls } from "./tool-runner.ts";
import { OutputLimit, TOOL_OUTPUT_LIMIT } from "./tools/output-limit.ts";
import { isPlainObject } from "../system/plain-object.ts";

export const DEFAULT_MAX_TURNS = 50;
export const DEFAULT_MAX_TOKENS = 16_000;

/** The user-side notes a cancelled turn leaves, as Claude Code words them, so the model knows why its turn ended. */
export const INTERRUPTED_NOTE = "[Request interrupted by user]";
export const INTERRUPTED_TOOLS_NOTE = "[Request interrupted by user for tool use]";

export interface AgentLoopOptions {
  client: Anthropic;
  model: string;
  /** Read at every request, so tools registered while the conversation runs (MCP) are seen. */
  registry: ToolRegistry;
  permissions: PermissionGate;
  /** A function is called at every request, so what it says can change (servers' instructions). */
  system?: string | (() => string);
  /** Model requests allowed for one prompt; a runaway tool loop stops here. */
  maxTurns?: number;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  /** Extended thinking, sent with every request (adaptive on the models that take only that). */
  thinking?: { budgetTokens: number };
  /** Compact near the context window (default true). */
  autoCompact?: boolean;
  /** The context window when the model table does not know the model (and for tests). */
  contextWindow?: number;
  /** When servers' tools are deferred behind the tool search (default `auto`, 10%). */
  toolSearch?: ToolSearchMode;
  /** Which tools requests carry, when the holder keeps it (for /context); else made from `registry` and `toolSearch`. */
  requestTools?: RequestTools;
  /** Cuts tool results past their limit, saving the whole (tools/output-limit.ts); absent: cut at TOOL_OUTPUT_LIMIT, not saved. */
  outputLimit?: OutputLimit;
  /** Claude Code's hooks (settings.json `hooks`): around tool calls, prompts, the end of a turn, compaction. */
  hooks?: AgentHooks;
}

export interface RunOptions {
  /** Aborting cancels the run: the stream is closed and running tools get the signal. */
  signal?: AbortSignal;
  observer?: AgentObserver;
}

/** How a run ended. An API failure is not among them: that throws an AgentError, and the prompt is taken out. */
export type RunOutcome =
  /** `usage`: this run's tokens, its compaction requests included. */
  | { status: "done"; text: string; stopReason: string; requests: number; usage: TokenUsage }
  | { status: "cancelled"; requests: number }
  /** The user declined a tool call (a "stop" decision): the turn ends, and the REPL asks what to do instead. */
  | { status: "declined"; requests: number }
  /** A UserPromptSubmit hook blocked the prompt: nothing was sent, and `reason` is for the user. */
  | { status: "blocked"; reason: string; requests: number }
  /** A PreToolUse or PostToolUse hook answered `continue: false`: the turn ends; `reason` (its stopReason, maybe "") is for the user. */
  | { status: "stopped"; event: HookHalt["event"]; reason: string; requests: number }
  | { status: "max_turns"; text: string; requests: number; usage: TokenUsage };

/** What one run is doing, shared by its requests (and the compactions between them). */
interface RunState {
  signal: AbortSignal | undefined;
  observer: AgentObserver | undefined;
  usage: TokenUsage;
  /** The text the model had written when its answer was cancelled midway (Esc): it was shown, so it is kept. */
  partial?: ContentBlock[];
}

/**
 * The agent: sends the conversation to the model, streams the answer, runs the tools it asks for,
 * answers with their results, and goes on until the model ends its turn. It sees only Tools in a
 * registry and cannot tell a built-in tool from an MCP one.
 */
export class AgentLoop {
  readonly conversation = new Conversation();
  readonly usage = new UsageMeter();
  /** Which tools each request carries: all of them, or the tool search and what it loaded. */
  readonly tools: RequestTools;
  /** The model for the next request: /model switches it. */
  model: string;
  private readonly retry: RetryPolicy;
  /** The last request's prompt and answer, in tokens: how full the context window is. */
  private contextTokens: number | undefined;
  private readonly outputLimit: OutputLimit;

  constructor(private readonly options: AgentLoopOptions) {
    this.model = options.model;
    // Without one given, results are still cut (never sent unbounded), only not saved.
    this.outputLimit = options.outputLimit ?? new OutputLimit({ maxChars: () => TOOL_OUTPUT_LIMIT, folder: () => undefined });
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.tools = options.requestTools ?? new RequestTools(options.registry, options.toolSearch);
  }

  /** The current model's context window, in tokens. */
  get contextWindow(): number {
    return contextWindowOf(this.model, this.options.contextWindow);
  }

  /**
   * Runs one prompt: typed text, or blocks (text and images) that become the user message's content.
   * A request that fails for good throws, and the prompt is taken out again: the conversation is as
   * it was before (a prompt that made the API refuse would make it refuse every prompt after it).
   */
  async run(prompt: string | PromptBlock[], { signal, observer }: RunOptions = {}): Promise<RunOutcome> {
    const hooks = this.options.hooks;
    const submitted = hooks ? await hooks.userPromptSubmit(promptText(prompt), signal) : { context: [] };
    if ("blocked" in submitted) return { status: "blocked", reason: submitted.blocked, requests: 0 };
    // Given up before anything was sent (waiting for a SessionStart hook): the conversation stays as it was.
    if (signal?.aborted) return { status: "cancelled", requests: 0 };
    let before = this.conversation.snapshot();
    if (typeof prompt === "string" && submitted.context.length === 0) this.conversation.addUserText(prompt);
    else this.conversation.addUserBlocks([...(typeof prompt === "string" ? [{ type: "text" as const, text: prompt }] : prompt), ...submitted.context.map((text) => ({ type: "text" as const, text }))]);
    let stopHookActive = false;
    const state: RunState = { signal, observer, usage: emptyUsage() };
    const maxTurns = this.options.maxTurns ?? DEFAULT_MAX_TURNS;
    let text = "";
    try {
      for (let request = 1; request <= maxTurns; request++) {
        if (this.nearContextWindow() && !signal?.aborted) {
          const compacted = await this.compactQuietly("auto", state);
          if (compacted) before = compacted;
        }
        observer?.onModelRequest?.(request);
        let message: Message | undefined;
        try {
          message = await this.turnRequest(state);
        } catch (error) {
          if (!isPromptTooLong(error)) throw error;
          // One compaction and one retry; if either fails, the first error stands.
          const compacted = await this.compactQuietly("too-long", state);
          if (!compacted && signal?.aborted) return this.cancelled(request, false);
          if (!compacted) throw error;
          before = compacted;
          message = await this.turnRequest(state);
        }
        if (!message) return this.cancelled(request, false, state.partial);
        this.conversation.addAssistant(message.content);
        text = textOf(message);

        const calls = toolCalls(message);
        if (calls.length === 0) {
          // A Stop hook may send the model on with a reason (once it did, stop_hook_active says so).
          const goOn = hooks && !signal?.aborted ? await hooks.stop(stopHookActive, signal, text) : undefined;
          if (goOn === undefined || signal?.aborted) return { status: "done", text, stopReason: message.stop_reason ?? "end_turn", requests: request, usage: state.usage };
          stopHookActive = true;
          this.conversation.addUserText(`Stop hook feedback:\n${goOn}`);
          continue;
        }
        // Results are recorded even when cancelled, so every tool_use stays answered.
        const { results, declined, halted } = await runToolCalls(calls, { registry: this.options.registry, lookup: this.tools, permissions: this.options.permissions, signal, observer, outputLimit: this.outputLimit, hooks });
        this.tools.noteCalled(calls.map((call) => call.name));
        this.conversation.addToolResults(results);
        if (signal?.aborted) return this.cancelled(request, true);
        if (declined) return { status: "declined", requests: request };
        if (halted) return { status: "stopped", event: halted.event, reason: halted.reason, requests: request };
      }
    } catch (error) {
      if (error instanceof AgentError) this.conversation.replace(before);
      throw error;
    }
    return { status: "max_turns", text, requests: maxTurns, usage: state.usage };
  }

  /**
   * Replaces the conversation by a summary the model writes of it (`/compact [instructions]`).
   * Undefined when there is nothing to compact or it was cancelled; an AgentError when the request
   * failed. Either way, unless it succeeded, the conversation stays as it was.
   */
  async compact(options: { instructions?: string; signal?: AbortSignal; observer?: AgentObserver } = {}): Promise<CompactionNotice | undefined> {
    const state: RunState = { signal: options.signal, observer: options.observer, usage: emptyUsage() };
    return (await this.compactNow("manual", state, options.instructions))?.notice;
  }

  /** Auto and "too long" compaction inside a run: a failure is not the run's failure. Returns the conversation without the pending turn. */
  private async compactQuietly(reason: "auto" | "too-long", state: RunState): Promise<MessageParam[] | undefined> {
    try {
      return (await this.compactNow(reason, state))?.baseline;
    } catch (error) {
      if (error instanceof AgentError) return undefined;
      throw error;
    }
  }

  private async compactNow(reason: CompactionNotice["reason"], state: RunState, instructions?: string) {
    const messages = this.conversation.snapshot();
    const { head, tail } = splitForCompaction(messages, reason !== "manual");
    // Automatically, a lone message (the last summary) is not worth a request: it would only be summarised again.
    if (head.length < (reason === "manual" ? 1 : 2)) return undefined;
    await this.options.hooks?.preCompact(reason === "manual" ? "manual" : "auto", instructions);
    const summary = await requestSummary(head, { instructions, send: (summaryMessages) => this.summaryRequest(summaryMessages, state) });
    if (summary === undefined) return undefined;
    const compacted = compactedMessages(summary, tail, head);
    this.conversation.replace(compacted);
    this.contextTokens = undefined;
    const notice: CompactionNotice = { reason, before: messages.length, after: this.conversation.length };
    state.observer?.onCompaction?.(notice);
    return { notice, baseline: compactedMessages(summary, [], head) };
  }

  private nearContextWindow(): boolean {
    if (this.options.autoCompact === false || this.contextTokens === undefined) return false;
    const window = modelInfo(this.model)?.contextWindow ?? this.options.contextWindow;
    return window !== undefined && this.contextTokens >= window * AUTO_COMPACT_SHARE;
  }

  /** The next request of a turn: the conversation, with thinking if asked for, streamed to the observer. */
  private async turnRequest(state: RunState): Promise<Message | undefined> {
    const thinking = this.thinkingParam();
    const maxTokens = this.options.maxTokens ?? DEFAULT_MAX_TOKENS;
    const budget = thinking?.type === "enabled" ? thinking.budget_tokens : 0;
    const message = await this.request(
      {
        messages: this.conversation.snapshot(),
        // The answer needs room beyond the thinking budget (the API refuses max_tokens <= budget_tokens).
        max_tokens: budget >= maxTokens ? budget + maxTokens : maxTokens,
        ...(thinking ? { thinking } : {}),
      },
      state,
      true,
    );
    if (message) this.contextTokens = promptTokens(usageOf(message.usage)) + usageOf(message.usage).output;
    return message;
  }

  private summaryRequest(messages: MessageParam[], state: RunState): Promise<Message | undefined> {
    return this.request({ messages, max_tokens: SUMMARY_MAX_TOKENS, tool_choice: { type: "none" } }, state, false);
  }

  private thinkingParam(): ThinkingConfigParam | undefined {
    const thinking = this.options.thinking;
    if (!thinking) return undefined;
    if (modelInfo(this.model)?.adaptiveThinking) return { type: "adaptive" };
    return { type: "enabled", budget_tokens: thinking.budgetTokens };
  }

  /** One model request with retries, its usage counted; undefined when cancelled. */
  private async request(
    params: { messages: MessageParam[]; max_tokens: number; thinking?: ThinkingConfigParam; tool_choice?: ToolChoice },
    state: RunState,
    streamToObserver: boolean,
  ): Promise<Message | undefined> {
    const { signal, observer } = state;
    const model = this.model;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) return undefined;
      const system = typeof this.options.system === "function" ? this.options.system() : this.options.system;
      const { tools, stableCount, deferredNote } = this.tools.forRequest(this.contextWindow);
      const prompt = withCacheBreakpoints({ system, systemNote: deferredNote, tools, stableTools: stableCount, messages: params.messages });
      const stream = this.options.client.messages.stream({ ...params, model, ...prompt }, { signal, maxRetries: 0 });
      state.partial = undefined;
      if (streamToObserver && observer?.onText) stream.on("text", (delta) => observer.onText?.(delta));
      if (streamToObserver && observer?.onThinking) stream.on("thinking", (delta) => observer.onThinking?.(delta));
      if (streamToObserver && observer?.onTextBlockEnd) stream.on("contentBlock", (block) => block.type === "text" && observer.onTextBlockEnd?.());
      try {
        const message = await stream.finalMessage();
        const usage = usageOf(message.usage);
        this.usage.add(model, usage);
        state.usage = addUsage(state.usage, usage);
        observer?.onUsage?.(usage, model);
        return message;
      } catch (error) {
        if (signal?.aborted || error instanceof APIUserAbortError) {
          if (streamToObserver) state.partial = shownText(stream.currentMessage);
          return undefined;
        }
        const maxRetries = retriesFor(error, this.retry);
        if (attempt > maxRetries) {
          const failure = toAgentError(error, attempt);
          throw unknownModelError(failure, model) ?? failure;
        }
        const delayMs = retryDelayMs(error, attempt, this.retry);
        observer?.onRetry?.({ error: toAgentError(error, attempt), retry: attempt, maxRetries, delayMs });
        if (!(await sleep(delayMs, signal))) return undefined;
      }
    }
  }

  /**
   * A cancelled turn leaves a note, so the next request tells the model its turn was cut short. An
   * answer cancelled while it streamed is kept as far as it got, as the model's message before the
   * note (as Claude Code does): the user saw it, and the next prompt is a message of its own after it.
   */
  private cancelled(requests: number, duringTools: boolean, partial: ContentBlock[] = []): RunOutcome {
    this.conversation.addAssistant(partial);
    this.conversation.addUserText(duringTools ? INTERRUPTED_TOOLS_NOTE : INTERRUPTED_NOTE);
    return { status: "cancelled", requests };
  }
}

/** The prompt's text, as a UserPromptSubmit hook reads it. */
function promptText(prompt: string | PromptBlock[]): string {
  return typeof prompt === "string" ? prompt : prompt.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** The text blocks of an answer cut short, those with something to read (the API refuses blank ones); its unfinished tool calls left out. */
function shownText(message: Message | undefined): ContentBlock[] {
  return (message?.content ?? []).filter((block) => block.type === "text" && block.text.trim() !== "");
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
