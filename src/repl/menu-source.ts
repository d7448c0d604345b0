import type { ServerPool } from "../mcp/index.ts";
import { firstLine } from "../terminal/terminal-text.ts";
import type { Completions } from "./completion.ts";
import type { MenuSource } from "./completion-menu.ts";
import { listPromptCommands } from "./prompt-commands.ts";
import type { RemoteCompletions } from "./remote-completion.ts";

/** Items the menu takes from one answer: it shows a few rows and scrolls, so more would only cost. */
const MAX_MENU_ITEMS = 50;
/** A command's name being typed, or an `@` mention (a file, a server's resource). */
const SLASH_NAME = /^\s*\/\S*$/;
const MENTION = /(?:^|\s)@\S*$/;

/**
 * The REPL's live menu: for a command's name, what Tab would offer with each command's help (the
 * built-ins', the custom commands' descriptions, the servers' prompts' descriptions); for an `@`
 * word, the files and resources Tab would offer. The descriptions are gathered once per prompt.
 */
export function replMenuSource(options: {
  complete: (line: string) => Promise<Completions>;
  /** `/name` -> one line about it: the built-ins and the custom commands. */
  describe: () => Map<string, string>;
  pool: Pick<ServerPool, "status" | "serversOffering">;
  remote: RemoteCompletions;
}): MenuSource {
  let descriptions: Promise<Map<string, string>> | undefined;
  const describe = () =>
    (descriptions ??= options.remote.within(listPromptCommands(options.pool), [], "the list of prompts").then((prompts) => {
      const about = options.describe();
      for (const command of prompts) about.set(`/${command.name}`, firstLine(command.prompt.description ?? command.prompt.title ?? ""));
      return about;
    }));
  return async (line) => {
    const slash = SLASH_NAME.test(line);
    if (!slash && !MENTION.test(line)) return undefined;
    const [candidates, word] = await options.complete(line);
    if (candidates.length === 0) return undefined;
    const about = slash ? await describe() : new Map<string, string>();
    return { word, items: candidates.slice(0, MAX_MENU_ITEMS).map((value) => ({ value, description: about.get(value) ?? "" })) };
  };
}
