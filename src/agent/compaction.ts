import type { ContentBlockParam, Message, MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { AgentError } from "./agent-error.ts";
import { todoNoteFor } from "./todo-list.ts";

/**
 * Compaction: the conversation is replaced by a summary the model writes of it, so a long session
 * goes on within the context window. What the summary must keep is what the work needs next: the
 * user's requests, the files touched, the decisions, the errors, the open tasks.
 */

/** Auto-compaction starts when the last request's prompt filled this share of the context window. */
export const AUTO_COMPACT_SHARE = 0.85;

/** Room for a thorough summary, and for the thinking of models that always think; below every model's output limit. */
export const SUMMARY_MAX_TOKENS = 16_000;

const SUMMARY_REQUEST = `Stop here and write a summary of the conversation so far: it will replace the conversation, so that the work can go on in a fresh context. Do not call tools. Keep what the work needs next:
1. The user's requests and intent, in their words where it matters.
2. The files read, changed or created (with their paths), and what changed in them.
3. Commands run and results that matter; errors met and how they were fixed.
4. Decisions taken and why.
5. The open tasks, and the next step you were about to take.
Write only the summary, as plain text.`;

export const SUMMARY_PREFIX = "This session continues an earlier conversation, which was compacted into this summary:\n\n";
const DROPPED_NOTE = "[The oldest part of the conversation was left out of this summary: it did not fit.]";
const IMAGE_NOTE = "[image left out of the summary request]";

/** Sends one model request with the loop's retries and usage accounting; undefined when cancelled. */
export type SummarySender = (messages: MessageParam[]) => Promise<Message | undefined>;

/**
 * The part of a conversation compaction replaces (`head`) and the part kept as it is (`tail`): when
 * a request is about to go out (auto, "prompt is too long"), the message it answers stays, with the
 * assistant message whose tool_use blocks it answers, so every tool_result keeps its tool_use.
 */
export function splitForCompaction(messages: readonly MessageParam[], keepPending: boolean): { head: MessageParam[]; tail: MessageParam[] } {
  const last = messages.at(-1);
  if (!keepPending || last?.role !== "user") return { head: [...messages], tail: [] };
  const keep = blocksOf(last).some((block) => block.type === "tool_result") ? 2 : 1;
  return { head: messages.slice(0, -keep), tail: messages.slice(-keep) };
}

/**
 * Asks the model for a summary of `head`. When even that request is too long for the context
 * window, the oldest messages are left out (a tool_result never without its tool_use) and it is
 * asked again, until it fits or nothing is left. Images are left out: they are large, and after
 * compaction they would be gone anyway. Undefined when cancelled; an AgentError when it failed.
 */
export async function requestSummary(head: readonly MessageParam[], options: { instructions?: string; send: SummarySender }): Promise<string | undefined> {
  let messages = head.map(withoutImages);
  for (;;) {
    let answer: Message | undefined;
    try {
      answer = await options.send(withSummaryRequest(messages, options.instructions));
    } catch (error) {
      if (!isPromptTooLong(error) || messages.length <= 1) throw error;
      messages = dropOldest(messages, keepShare(error));
      if (messages.length === 0) throw error;
      continue;
    }
    if (!answer) return undefined;
    const summary = answer.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("").trim();
    if (!summary) throw new AgentError("request", "the model wrote no summary; the conversation was kept as it was");
    return summary;
  }
}

/**
 * The conversation after compaction: the summary as the first user message, then the tail. The
 * todo list of the messages it replaces (`head`) goes with the summary, as todo_write left it.
 */
export function compactedMessages(summary: string, tail: readonly MessageParam[], head: readonly MessageParam[] = []): MessageParam[] {
  const todos = todoNoteFor(head);
  return [{ role: "user", content: [{ type: "text", text: `${SUMMARY_PREFIX}${summary}` }, ...(todos ? [todos] : [])] }, ...tail];
}

/** The API's 400 for a request over the model's context window. */
export function isPromptTooLong(error: unknown): boolean {
  return error instanceof AgentError && error.status === 400 && /prompt is too long/i.test(error.message);
}

/** How much of the messages to keep after "N tokens > M maximum": a bit under M/N, else half. */
function keepShare(error: unknown): number {
  const match = /(\d+) tokens > (\d+) maximum/.exec((error as Error).message);
  const ratio = match ? Number(match[2]) / Number(match[1]) : 0.5;
  return Math.min(Math.max(ratio * 0.9, 0.1), 0.9);
}

/**
 * Leaves out about (1 - share) of the messages, oldest first. What remains starts with a user
 * message; its tool_result blocks answered tool_use blocks now left out, so they go too.
 */
function dropOldest(messages: MessageParam[], share: number): MessageParam[] {
  let start = Math.max(1, Math.floor(messages.length * (1 - share)));
  while (start < messages.length && messages[start]!.role !== "user") start++;
  if (start >= messages.length) return [];
  const rest = blocksOf(messages[start]!).filter((block) => block.type !== "tool_result");
  return [{ role: "user", content: [{ type: "text", text: DROPPED_NOTE }, ...rest] }, ...messages.slice(start + 1)];
}

/** The messages with the summary request at the end, joined to a last user message if there is one. */
function withSummaryRequest(messages: MessageParam[], instructions: string | undefined): MessageParam[] {
  const request = instructions?.trim() ? `${SUMMARY_REQUEST}\n\nThe user adds these instructions for the summary:\n${instructions.trim()}` : SUMMARY_REQUEST;
  const block: ContentBlockParam = { type: "text", text: request };
  const last = messages.at(-1);
  if (last?.role === "user") return [...messages.slice(0, -1), { role: "user", content: [...blocksOf(last), block] }];
  return [...messages, { role: "user", content: [block] }];
}

function withoutImages(message: MessageParam): MessageParam {
  if (typeof message.content === "string") return message;
  return { ...message, content: message.content.map(imageToText) } as MessageParam;
}

function imageToText(block: ContentBlockParam): ContentBlockParam {
  if (block.type === "image") return { type: "text", text: IMAGE_NOTE };
  if (block.type === "tool_result" && Array.isArray(block.content)) {
    const content = block.content.map((part) => (part.type === "image" ? { type: "text" as const, text: IMAGE_NOTE } : part));
    return { ...block, content } as ToolResultBlockParam;
  }
  return block;
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
}
