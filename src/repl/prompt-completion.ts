import type { ServerPool } from "../mcp/index.ts";
import { createCompleter, type Completions } from "./completion.ts";
import type { MenuSource } from "./completion-menu.ts";
import { loadCustomCommands, type CustomCommand } from "./custom-commands.ts";
import { fileCompletion } from "./file-completion.ts";
import { mentionCompletion } from "./mention-completion.ts";
import { replMenuSource } from "./menu-source.ts";
import { RemoteCompletions } from "./remote-completion.ts";
import { BUILTIN_COMMAND_NAMES, builtinCommandHelp } from "./slash-commands.ts";
import { slashCompletion } from "./slash-completion.ts";

/**
 * What the prompt offers as the user types: Tab's completions and the live menu under the line, over
 * the built-in and custom slash commands, the servers' `@server:` resources and the project's files.
 */
export class PromptCompletion {
  /** The servers' completions (prompt arguments, resource templates), shared with the slash commands. */
  readonly remote = new RemoteCompletions();
  readonly complete: (line: string) => Promise<Completions>;
  /** The custom commands as read for the current prompt (see customCommands). */
  private customCache: CustomCommand[] | undefined;

  constructor(
    private readonly pool: ServerPool,
    private readonly cwd: string,
  ) {
    // Tab's sources, one per kind of word: slash commands, @server: resources, @ file paths.
    this.complete = createCompleter([slashCompletion({ pool, remote: this.remote, customNames: () => this.customCommands().map((command) => command.name) }), mentionCompletion({ pool, remote: this.remote }), fileCompletion({ cwd })]);
  }

  /**
   * `.cat-code/commands` and `.claude/commands`, the project's and the user's: read again for each
   * prompt (so a new file counts), once for all the keys typed at it (the live menu asks per key).
   */
  customCommands(): CustomCommand[] {
    return (this.customCache ??= loadCustomCommands(this.cwd, BUILTIN_COMMAND_NAMES));
  }

  /** The live menu for the prompt that starts now. */
  menuSource(): MenuSource {
    this.customCache = undefined;
    const describe = () => {
      const about = builtinCommandHelp();
      for (const command of this.customCommands()) about.set(`/${command.name}`, command.description);
      return about;
    };
    return replMenuSource({ complete: this.complete, describe, pool: this.pool, remote: this.remote });
  }
}
