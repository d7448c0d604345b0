import type { ContentBlockParam, MessageParam, TextBlockParam, Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages";

/**
 * Prompt caching: the Messages API caches the prompt up to each block marked
 * `cache_control: {type: "ephemeral"}` (at most 4 marks a request), and the next request that starts
 * with the same prefix reads it at a tenth of the price. The prompt is tools, then system, then
 * messages; three marks cover what repeats from one request to the next: the last tool definition,
 * the system prompt, and the last block of the last user message (so the next request, which adds
 * the answer and a new turn behind it, reads the whole conversation so far from the cache).
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching
 */
const EPHEMERAL = { type: "ephemeral" } as const;

export interface CacheablePrompt {
  system: string | undefined;
  tools: ApiTool[];
  messages: MessageParam[];
}

export interface CachedPrompt {
  system?: TextBlockParam[];
  tools: ApiTool[];
  messages: MessageParam[];
}

/** The request's parts with the breakpoints set; what it is given is left unchanged (copies). */
export function withCacheBreakpoints(prompt: CacheablePrompt): CachedPrompt {
  const tools = prompt.tools.map((tool, index) => (index === prompt.tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool));
  const messages = [...prompt.messages];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser !== -1) messages[lastUser] = markLastBlock(messages[lastUser]!);
  return {
    ...(prompt.system ? { system: [{ type: "text", text: prompt.system, cache_control: EPHEMERAL }] } : {}),
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
