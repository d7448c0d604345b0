import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readConversationLog, type LoggedConversation } from "./read-conversation-log.ts";
import { CONVERSATION_ID, conversationLogsFolder } from "./conversation-log-paths.ts";

export interface ConversationSummary {
  id: string;
  path: string;
  modified: Date;
  /** The first prompt, as typed (the caller sanitizes it for a terminal). */
  firstPrompt: string;
  messageCount: number;
  /** The file as read for the list, so resuming it does not read it again. */
  read: LoggedConversation;
}

/** How many sessions the list reads: each is replayed to count its messages. */
export const LISTED_CONVERSATIONS = 20;

/** This folder's sessions, the most recently changed first; files without a message are left out. */
export function listConversations(home: string, cwd: string, limit = LISTED_CONVERSATIONS): ConversationSummary[] {
  const folder = conversationLogsFolder(home, cwd);
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => CONVERSATION_ID.test(name.replace(/\.jsonl$/, "")) && name.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const files = names.flatMap((name) => {
    const path = join(folder, name);
    try {
      // Nanoseconds: two sessions of one second (a script's runs) still come in their order.
      const stat = statSync(path, { bigint: true });
      return [{ id: name.slice(0, -".jsonl".length), path, modified: new Date(Number(stat.mtimeMs)), order: stat.mtimeNs }];
    } catch {
      return [];
    }
  });
  files.sort((a, b) => (b.order > a.order ? 1 : b.order < a.order ? -1 : 0));
  const conversations: ConversationSummary[] = [];
  for (const file of files) {
    if (conversations.length >= limit) break;
    const read = readConversationLog(file.path);
    if (read.messages.length === 0) continue;
    conversations.push({ id: file.id, path: file.path, modified: file.modified, firstPrompt: read.firstPrompt ?? "", messageCount: read.messages.length, read });
  }
  return conversations;
}

/** The session with this id in this folder, if there is one. */
export function findConversation(home: string, cwd: string, id: string): string | undefined {
  if (!CONVERSATION_ID.test(id)) return undefined;
  const path = join(conversationLogsFolder(home, cwd), `${id}.jsonl`);
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
