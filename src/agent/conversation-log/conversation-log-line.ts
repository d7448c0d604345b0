import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import * as v from "valibot";
import type { TokenUsage } from "../usage.ts";

/**
 * One line of a session file. The file replays the conversation's changes in order (the same
 * changes `Conversation.onChange` reports) and every request's usage, so reading it back gives the
 * conversation and the cost as they were at the last complete line.
 */
const Block = v.looseObject({ type: v.string() });
const Message = v.object({ role: v.picklist(["user", "assistant"]), content: v.union([v.string(), v.array(Block)]) });
const Count = v.pipe(v.number(), v.finite(), v.minValue(0));
const Usage = v.object({ input: Count, output: Count, cacheRead: Count, cacheWrite: Count });

export const ConversationLogLine = v.variant("type", [
  v.object({ type: v.literal("session"), version: v.literal(1), id: v.string(), cwd: v.string(), model: v.string(), created: v.string() }),
  v.object({ type: v.literal("push"), message: Message }),
  v.object({ type: v.literal("update-last"), message: Message }),
  v.object({ type: v.literal("reset"), messages: v.array(Message) }),
  v.object({ type: v.literal("usage"), model: v.string(), usage: Usage }),
  /** The deferred tools the search had loaded (all of them, in load order) as of this line. */
  v.object({ type: v.literal("tools-loaded"), names: v.array(v.string()) }),
]);
export type ConversationLogLine = v.InferOutput<typeof ConversationLogLine>;

export function encodeLine(line: ConversationLogLine | { type: "push" | "update-last"; message: MessageParam } | { type: "reset"; messages: MessageParam[] } | { type: "usage"; model: string; usage: TokenUsage }): string {
  return `${JSON.stringify(line)}\n`;
}

/** The line parsed and checked; undefined when it is not a session line (garbage, a cut line). */
export function decodeLine(text: string): ConversationLogLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(ConversationLogLine, value);
  return parsed.success ? parsed.output : undefined;
}
