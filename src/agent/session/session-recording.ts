import type { Conversation } from "../conversation.ts";
import type { UsageMeter } from "../usage-meter.ts";
import type { ReadSession } from "./read-session.ts";
import { SessionFile, type SessionFileOptions } from "./session-file.ts";

/** A session to go on with: its file and what was read from it. */
export interface ResumedSession {
  path: string;
  read: ReadSession;
}

/** The file this run saves to: a new one, or the resumed session's (see SessionFile.resume). */
export function openSessionFile(options: SessionFileOptions & { resumed?: ResumedSession }): SessionFile {
  return options.resumed ? SessionFile.resume(options.resumed.path, options.resumed.read, options) : SessionFile.create(options);
}

/**
 * Starts saving an agent's conversation and usage, after loading a resumed session's into it (so
 * /cost counts the earlier requests too). Loading reports no change: the file has them already.
 */
export function recordInto(file: SessionFile, agent: { conversation: Conversation; usage: UsageMeter }, resumed?: ResumedSession): void {
  if (resumed) {
    agent.conversation.load(resumed.read.messages);
    agent.usage.restore(resumed.read.usage);
  }
  file.attach(agent.conversation, agent.usage);
}
