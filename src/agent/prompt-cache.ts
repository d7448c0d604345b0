import type { ContentBlockParam, MessageParam, TextBlockParam, Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages";

/**
 * Prompt caching: the Messages API caches the prompt up to each block marked
 * `cache_control: {type: "ephemeral"}` (at most 4 marks a request), and the next request that starts
 * with the same prefix reads it at a tenth of the price. The prompt is tools, then system, then
 * messages; three marks cover what repeats from one request to the next: the last tool definition,
 * the system prompt, and the last block of the last user message (so the next request, which adds
 * the answer and a new turn behind it, reads the whole conversation so far from the cache).
 * With tool search, the tools a search loads are appended behind the stable ones: a fourth mark on
 * the last stable tool keeps that prefix cached when a tool is loaded (request-tools.ts).
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching
 */
const EPHEMERAL = { type: "ephemeral" } as const;

export interface CacheablePrompt {
  system: string | undefined;
  /** A second system block after the prompt: the deferred tools' names (tool search). */
  systemNote?: string;
  tools: ApiTool[];
  /** How many leading tools do not change when a tool is loaded (default: all). */
  stableTools?: number;
  messages: MessageParam[];
}

export interface CachedPrompt {
  system?: TextBlockParam[];
  tools: ApiTool[];
  messages: MessageParam[];
}

/** The request's parts with the breakpoints set; what it is given is left unchanged (copies). */
export function withCacheBreakpoints(prompt: CacheablePrompt): CachedPrompt {
  const last = prompt.tools.length - 1;
  const lastStable = Math.min(prompt.stableTools ?? prompt.tools.length, prompt.tools.length) - 1;
  const tools = prompt.tools.map((tool, index) => (index === last || index === lastStable ? { ...tool, cache_control: EPHEMERAL } : tool));
  const system: TextBlockParam[] = [prompt.system, prompt.systemNote].flatMap((text) => (text ? [{ type: "text" as const, text }] : []));
  if (system.length > 0) system[system.length - 1] = { ...system.at(-1)!, cache_control: EPHEMERAL };
  const messages = [...prompt.messages];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser !== -1) messages[lastUser] = markLastBlock(messages[lastUser]!);
  return {
    ...(system.length > 0 ? { system } : {}),
    tools,
    messages,
  };
}

function markLastBlock(message: MessageParam): MessageParam {
  const content: ContentBlockParam[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
  const last = content.at(-1);
  // The API refuses a mark on an empty text block, and thinking blocks cannot carry one.
  if (!last || (last.type === "text" && last.text === "") || last.type === "thinking" || last.type === "redacted_thinking") return message;
  content[content.length - 1] = { ...last, cache_control: EPHEMERAL } as ContentBlockParam;
  return { ...message, content } as MessageParam;
}
