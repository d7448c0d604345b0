import { createInterface } from "node:readline/promises";
import type { ConversationSummary } from "../agent/conversation-log/conversation-list.ts";
import { conversationRows } from "../terminal/resumed-view.ts";

/**
 * `cat-code --resume` at a terminal: this folder's recent sessions, numbered, newest first; the
 * user types a number (Enter takes the newest). Ctrl-C, Ctrl-D or `q` resumes none.
 */
export async function pickConversation(
  conversations: readonly ConversationSummary[],
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream & { columns?: number } = process.stdout,
): Promise<ConversationSummary | undefined> {
  output.write(`Recent sessions in this folder:\n${conversationRows(conversations, output.columns).join("\n")}\n`);
  const reader = createInterface({ input, output, terminal: true });
  const gone = new AbortController();
  reader.on("SIGINT", () => gone.abort());
  reader.on("close", () => gone.abort());
  try {
    for (;;) {
      const answer = (await reader.question(`Resume which? [1-${conversations.length}, Enter: 1, q: none] `, { signal: gone.signal })).trim().toLowerCase();
      if (answer === "q") return undefined;
      const index = answer === "" ? 0 : Number(answer) - 1;
      const chosen = Number.isInteger(index) ? conversations[index] : undefined;
      if (chosen) return chosen;
      output.write(`Type a number from 1 to ${conversations.length}.\n`);
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
