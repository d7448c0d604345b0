import type { MessageParam, Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages";
import { apiToolOf, CHARS_PER_TOKEN, type RequestTools } from "./request-tools.ts";
import type { Tool } from "./tool.ts";

/**
 * What the next request costs, by part (`/context`): the system prompt, the memory files in it,
 * cat-code's own tools, the servers' tools loaded and deferred (per server), the messages, and what
 * is left of the context window. Counted by the Messages API's count_tokens when it answers, each
 * part as the difference it makes to a one-word request (the messages: to one with the request's
 * tools, which the API wants beside tool_use blocks); else estimated from characters.
 */
export type ContextPartKey = "system" | "memory" | "builtin" | "mcp-loaded" | "mcp-deferred" | "messages";

export interface ServerShare {
  server: string;
  tools: number;
  tokens: number;
}

export interface ContextPart {
  key: ContextPartKey;
  tokens: number;
  /** How many things it holds: memory files, tools, messages. */
  count: number;
  /** The servers' tools, per server (tokens split by the size of their definitions). */
  servers?: ServerShare[];
  /** Deferred tools only: their definitions' size, were they all sent (an estimate, never counted). */
  definitionsTokens?: number;
}

export interface ContextUsage {
  model: string;
  window: number;
  /** "api": count_tokens answered; "estimate": characters / 4, with why. */
  counted: "api" | "estimate";
  why?: string;
  parts: ContextPart[];
  total: number;
  free: number;
}

/** The parts of a request count_tokens is asked about. */
export interface CountRequest {
  system?: string;
  tools?: ApiTool[];
  messages: MessageParam[];
}

export interface ContextInputs {
  model: string;
  window: number;
  /** The system prompt as sent, and as it would be without the memory files. */
  system: string;
  systemWithoutMemory: string;
  memoryFiles: number;
  tools: RequestTools;
  messages: MessageParam[];
  /** count_tokens; absent (no credentials) or failing means an estimate. */
  count?: (request: CountRequest) => Promise<number>;
}

const ONE_WORD: MessageParam[] = [{ role: "user", content: "." }];
/** What every part is measured against: a one-word request. */
const ONE_WORD_REQUEST: CountRequest = { messages: ONE_WORD };

export async function measureContext(inputs: ContextInputs): Promise<ContextUsage> {
  const { tools, window } = inputs;
  const set = tools.forRequest(window);
  const deferring = set.deferredNote !== undefined;
  const own = set.tools.filter((tool) => !tools.index.get(tool.name) && (!deferring || tool.name !== tools.searchTool.name));
  const loaded = deferring ? tools.loadedTools() : tools.index.list();
  const deferred = deferring ? tools.deferredTools() : [];
  // The API refuses tool_use and tool_result blocks in a request without tools: the messages are
  // counted with the request's own tools, less those tools alone.
  const withTools: CountRequest = { tools: set.tools, messages: ONE_WORD };
  const groups: Array<[part: CountRequest, baseline: CountRequest]> = [
    [{ system: inputs.systemWithoutMemory, messages: ONE_WORD }, ONE_WORD_REQUEST],
    [{ system: inputs.system, messages: ONE_WORD }, ONE_WORD_REQUEST],
    [{ tools: own, messages: ONE_WORD }, ONE_WORD_REQUEST],
    [{ tools: loaded.map(apiToolOf), messages: ONE_WORD }, ONE_WORD_REQUEST],
    [{ system: set.deferredNote, tools: deferring ? [apiToolOf(tools.searchTool)] : [], messages: ONE_WORD }, ONE_WORD_REQUEST],
    [{ tools: set.tools, messages: inputs.messages.length > 0 ? inputs.messages : ONE_WORD }, withTools],
  ];
  let counted: ContextUsage["counted"] = "estimate";
  let why: string | undefined = inputs.count ? undefined : "no API key";
  let sizes: number[];
  try {
    if (!inputs.count) throw new Error(why);
    const count = inputs.count;
    const baselines = [ONE_WORD_REQUEST, withTools];
    const answers = await Promise.all([...baselines, ...groups.map(([part]) => part)].map((request) => count(request)));
    const baselineTokens = new Map(baselines.map((request, i) => [request, answers[i]!]));
    sizes = groups.map(([, baseline], i) => Math.max(0, answers[baselines.length + i]! - baselineTokens.get(baseline)!));
    counted = "api";
  } catch (error) {
    why ??= `count_tokens did not answer: ${(error as Error)?.message ?? String(error)}`;
    sizes = groups.map(([part, baseline]) => Math.max(0, estimateTokens(part) - estimateTokens(baseline)));
  }
  const [withoutMemory, system, ownTokens, loadedTokens, deferredTokens, messagesTokens] = sizes as [number, number, number, number, number, number];
  const parts: ContextPart[] = [
    { key: "system", tokens: withoutMemory, count: 1 },
    { key: "memory", tokens: Math.max(0, system - withoutMemory), count: inputs.memoryFiles },
    { key: "builtin", tokens: ownTokens, count: own.length },
    { key: "mcp-loaded", tokens: loadedTokens, count: loaded.length, servers: shares(loaded, loadedTokens) },
  ];
  if (deferring) {
    const definitionsTokens = Math.ceil(deferred.reduce((sum, tool) => sum + chars(tool), 0) / CHARS_PER_TOKEN);
    parts.push({ key: "mcp-deferred", tokens: deferredTokens, count: deferred.length, servers: shares(deferred, deferredTokens), definitionsTokens });
  }
  parts.push({ key: "messages", tokens: inputs.messages.length > 0 ? messagesTokens : 0, count: inputs.messages.length });
  const total = parts.reduce((sum, part) => sum + part.tokens, 0);
  return { model: inputs.model, window, counted, ...(why && counted === "estimate" ? { why } : {}), parts, total, free: Math.max(0, window - total) };
}

/** Characters / 4 of what the part adds to a request (the one-word message is no part). */
function estimateTokens(request: CountRequest): number {
  const tools = request.tools?.length ? JSON.stringify(request.tools).length : 0;
  const messages = request.messages === ONE_WORD ? 0 : JSON.stringify(request.messages).length;
  return Math.ceil(((request.system ?? "").length + tools + messages) / CHARS_PER_TOKEN);
}

/** A group's tokens split between its servers by the size of their tools' definitions, largest first. */
function shares(tools: Tool[], tokens: number): ServerShare[] {
  const byServer = new Map<string, { tools: number; chars: number }>();
  let all = 0;
  for (const tool of tools) {
    const server = tool.origin?.server ?? "other";
    const entry = byServer.get(server) ?? { tools: 0, chars: 0 };
    entry.tools++;
    entry.chars += chars(tool);
    all += chars(tool);
    byServer.set(server, entry);
  }
  return [...byServer]
    .map(([server, entry]) => ({ server, tools: entry.tools, tokens: all === 0 ? 0 : Math.round((tokens * entry.chars) / all) }))
    .sort((a, b) => b.tokens - a.tokens);
}

function chars(tool: Tool): number {
  return JSON.stringify(apiToolOf(tool)).length;
}
