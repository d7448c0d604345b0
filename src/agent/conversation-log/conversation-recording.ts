import type { Conversation } from "../conversation.ts";
import type { RequestTools } from "../request-tools.ts";
import type { UsageMeter } from "../usage-meter.ts";
import type { LoggedConversation } from "./read-conversation-log.ts";
import { ConversationLog, type ConversationLogOptions } from "./conversation-log.ts";

/** A session to go on with: its file and what was read from it. */
export interface ResumedConversation {
  path: string;
  read: LoggedConversation;
}

/** The file this run saves to: a new one, or the resumed session's (see ConversationLog.resume). */
export function openConversationLog(options: ConversationLogOptions & { resumed?: ResumedConversation }): ConversationLog {
  return options.resumed ? ConversationLog.resume(options.resumed.path, options.resumed.read, options) : ConversationLog.create(options);
}

/**
 * Starts saving an agent's conversation, usage and loaded tools, after loading a resumed session's
 * into it (so /cost counts the earlier requests too, and the tools it had loaded are loaded again).
 * Loading reports no change: the file has them already.
 */
export function recordInto(file: ConversationLog, agent: { conversation: Conversation; usage: UsageMeter; tools?: RequestTools }, resumed?: ResumedConversation): void {
  if (resumed) {
    agent.conversation.load(resumed.read.messages);
    agent.usage.restore(resumed.read.usage);
    agent.tools?.restore(resumed.read.loadedTools);
  }
  file.attach(agent.conversation, agent.usage, agent.tools);
}
