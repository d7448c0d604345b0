import { createInterface } from "node:readline/promises";
import type { ConversationSummary } from "../agent/conversation-log/conversation-list.ts";
import { conversationRows } from "../terminal/resumed-view.ts";

/** The list the picker shows: this folder's recent sessions, numbered, newest first. */
export function conversationList(conversations: readonly ConversationSummary[], columns?: number): string {
  return `Recent sessions in this folder:\n${conversationRows(conversations, columns).join("\n")}`;
}

/** The picker's question. */
export function pickQuestion(count: number): string {
  return `Resume which? [1-${count}, Enter: 1, q: none] `;
}

/** One answer to the question: the session chosen, "none" (q), or undefined for an answer that names none. */
export function chosenConversation(answer: string, conversations: readonly ConversationSummary[]): ConversationSummary | "none" | undefined {
  const typed = answer.trim().toLowerCase();
  if (typed === "q") return "none";
  const index = typed === "" ? 0 : Number(typed) - 1;
  return Number.isInteger(index) ? conversations[index] : undefined;
}

/** Said after an answer that names no session. */
export function pickAgain(count: number): string {
  return `Type a number from 1 to ${count}.`;
}

/**
 * `cat-code --resume` at a terminal: this folder's recent sessions, numbered, newest first; the
 * user types a number (Enter takes the newest). Ctrl-C, Ctrl-D or `q` resumes none. The REPL's
 * `/resume` asks the same question with its own prompt (resume-command.ts).
 */
export async function pickConversation(
  conversations: readonly ConversationSummary[],
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream & { columns?: number } = process.stdout,
): Promise<ConversationSummary | undefined> {
  output.write(`${conversationList(conversations, output.columns)}\n`);
  const reader = createInterface({ input, output, terminal: true });
  const gone = new AbortController();
  reader.on("SIGINT", () => gone.abort());
  reader.on("close", () => gone.abort());
  try {
    for (;;) {
      const chosen = chosenConversation(await reader.question(pickQuestion(conversations.length), { signal: gone.signal }), conversations);
      if (chosen === "none") return undefined;
      if (chosen) return chosen;
      output.write(`${pickAgain(conversations.length)}\n`);
    }
  } catch (error) {
    if (gone.signal.aborted) {
      output.write("\n");
      return undefined;
    }
    throw error;
  } finally {
    reader.close();
  }
}
