import type { ContentBlockParam, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { sha256Hex } from "../../system/light-crypto.ts";
import type { PromptPosition } from "./checkpoint-line.ts";

/**
 * Where the next prompt will start in a conversation of `messages`: a new message, or (when a
 * cancelled turn left a user message last) more blocks of that one, as Conversation joins them.
 * The hash of what comes before lets a rewind check that the conversation still begins that way.
 */
export function promptPosition(messages: readonly MessageParam[]): PromptPosition {
  const last = messages.at(-1);
  if (last?.role === "user") {
    const block = blocksOf(last).length;
    return { message: messages.length - 1, block, hash: hashOf(messages) };
  }
  return { message: messages.length, block: 0, hash: hashOf(messages) };
}

/**
 * The conversation as it was before the prompt at `at`; undefined when it no longer begins as it
 * did then (compacted, cleared, or the prompt was taken out after a failed request), so cutting it
 * would not give back what the user had.
 */
export function conversationBefore(messages: readonly MessageParam[], at: PromptPosition): MessageParam[] | undefined {
  if (at.message > messages.length) return undefined;
  const before = messages.slice(0, at.message);
  if (at.block > 0) {
    const joined = messages[at.message];
    if (!joined || joined.role !== "user" || blocksOf(joined).length < at.block) return undefined;
    before.push({ role: "user", content: blocksOf(joined).slice(0, at.block) });
  }
  return hashOf(before) === at.hash ? before : undefined;
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** A hash of the messages that does not depend on key order (a session read back may order keys otherwise). */
function hashOf(messages: readonly MessageParam[]): string {
  const normal = messages.map((message) => ({ role: message.role, content: blocksOf(message) }));
  return sha256Hex(canonical(normal));
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
