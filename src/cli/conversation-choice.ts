import { readConversationLog } from "../agent/conversation-log/read-conversation-log.ts";
import type { ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import { findConversation, listConversations, type ConversationSummary } from "../agent/conversation-log/conversation-list.ts";
import { log } from "../log.ts";
import { CliError } from "../terminal/cli-error.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/**
 * The session `--continue` or `--resume` names: undefined for a new one, "none" when the user left
 * the list without choosing. A session that cannot be found is a usage error naming what to type;
 * one read only in part is resumed with a warning per problem.
 */
export async function chooseConversation(options: {
  home: string;
  cwd: string;
  print: boolean;
  continueLatest: boolean;
  /** "" for `--resume` without an id. */
  resume: string | undefined;
}): Promise<ResumedConversation | "none" | undefined> {
  if (options.continueLatest && options.resume !== undefined) throw CliError.usage("--continue and --resume both choose a session: give one of them");
  let path: string | undefined;
  // A session chosen from the list was read for it already.
  let listed: ConversationSummary | undefined;
  if (options.continueLatest) {
    listed = listConversations(options.home, options.cwd, 1)[0];
    path = listed?.path;
    if (!path) throw CliError.usage("no session to continue in this folder (sessions are kept per folder): start one with cat-code");
  } else if (options.resume === "") {
    if (options.print || !process.stdin.isTTY || !process.stdout.isTTY) {
      throw CliError.usage("--resume without an id lists sessions to pick from, which needs a terminal: give one, cat-code --resume <id> (or --continue for the latest)");
    }
    const conversations = listConversations(options.home, options.cwd);
    if (conversations.length === 0) throw CliError.usage("no session to resume in this folder (sessions are kept per folder): start one with cat-code");
    const { pickConversation } = await import("../repl/conversation-picker.ts");
    listed = await pickConversation(conversations);
    if (!listed) return "none";
    path = listed.path;
  } else if (options.resume !== undefined) {
    path = findConversation(options.home, options.cwd, options.resume);
    if (!path) throw CliError.usage(`no session '${sanitizeForTerminal(options.resume)}' in this folder: cat-code --resume lists them (sessions are kept per folder)`);
  }
  if (!path) return undefined;
  const read = listed?.read ?? readConversationLog(path);
  for (const warning of read.warnings) log.warn(warning);
  return { path, read };
}
