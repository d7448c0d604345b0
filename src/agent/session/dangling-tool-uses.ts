import type { MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";

export const ENDED_MID_CALL = "The session ended before this tool call finished; it may or may not have run.";

/**
 * A session can end between the model asking for tools and their results (a crash, a closed
 * terminal). The API refuses a tool_use without its tool_result, so every later request would fail:
 * the unanswered calls get an error result. Returns the same array when nothing needed answering.
 */
export function answerDanglingToolUses(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant" || typeof last.content === "string") return messages;
  const ids = last.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  if (ids.length === 0) return messages;
  const results: ToolResultBlockParam[] = ids.map((id) => ({ type: "tool_result", tool_use_id: id, is_error: true, content: ENDED_MID_CALL }));
  return [...messages, { role: "user", content: results }];
}
