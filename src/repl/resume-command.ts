import { listConversations } from "../agent/conversation-log/conversation-list.ts";
import { resumedLines } from "../terminal/resumed-view.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { chosenConversation, conversationList, pickAgain, pickQuestion } from "./conversation-picker.ts";
import type { ReplRecording } from "./repl-recording.ts";

/** Where the REPL's sessions are saved, and the recording that /clear and /resume switch. */
export interface ReplSessions {
  home: string;
  cwd: string;
  recording: ReplRecording;
}

/** What /resume needs of the REPL (the slash command's context gives it). */
export interface ResumeIo {
  sessions?: ReplSessions;
  print(text: string): void;
  ask?: (question: string, signal: AbortSignal) => Promise<string | null>;
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  columns?: number;
  /**
   * The chosen session is the conversation now: the agent is made (when the key is there) so it is
   * loaded before a prompt (/cost and /compact see it, as on --resume); its todo list follows it,
   * and SessionStart hooks hear "resume".
   */
  switched(): void;
}

/**
 * `/resume`: the same list and question as `cat-code --resume`, asked at the REPL's prompt; the
 * chosen session becomes the conversation (shown as on --resume) and is saved on in its own file.
 * The session being left stays resumable. Ctrl-C, Esc, Ctrl-D or `q` keeps the current one.
 */
export async function resumeCommand(context: ResumeIo): Promise<void> {
  const { sessions, print } = context;
  if (!sessions) return print("Sessions are not saved in this run, so there is none to resume.");
  const conversations = listConversations(sessions.home, sessions.cwd).filter((conversation) => conversation.id !== sessions.recording.id);
  if (conversations.length === 0) return print("No other session in this folder to resume (sessions are kept per folder).");
  print(conversationList(conversations, context.columns));
  const ask = context.ask ?? (async () => null);
  const chosen = await context.cancellable(async (signal) => {
    for (;;) {
      const answer = await ask(pickQuestion(conversations.length), signal);
      const choice = answer === null ? "none" : chosenConversation(answer, conversations);
      if (choice) return choice;
      print(pickAgain(conversations.length));
    }
  });
  if (chosen === "none") return print("(the current session goes on)");
  for (const warning of chosen.read.warnings) print(`warning: ${sanitizeForTerminal(warning)}`);
  sessions.recording.switchTo({ path: chosen.path, read: chosen.read });
  context.switched();
  for (const line of resumedLines({ id: chosen.id, messages: chosen.read.messages, columns: context.columns })) print(line);
}
