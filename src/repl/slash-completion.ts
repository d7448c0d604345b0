import type { ServerPool } from "../mcp/index.ts";
import type { CompletionSource } from "./completion.ts";
import { argumentCompletion } from "./prompt-argument-completion.ts";
import { listPromptCommands } from "./prompt-commands.ts";
import type { RemoteCompletions } from "./remote-completion.ts";
import { BUILTIN_COMMAND_NAMES, MCP_SUBCOMMANDS } from "./slash-commands.ts";

export interface SlashCompletionEnv {
  pool: Pick<ServerPool, "status" | "serversOffering">;
  remote: RemoteCompletions;
  /** The custom commands' names (`.claude/commands/*.md`…), read when asked. */
  customNames?: () => string[];
}

/**
 * Tab in a slash command: the command's name (built-ins and every server's prompts), what follows
 * `/mcp` and the server after `/mcp login|logout|reconnect|disable|enable`, `/permissions add
 * [user|project] allow|ask|deny`, and a prompt command's argument as the server
 * completes it (`completion/complete` with the arguments typed before it as context).
 */
/** The servers a subcommand may name: disable the ones not disabled, enable the disabled ones, the others any. */
function serverNames(env: SlashCompletionEnv, sub: string): string[] {
  const statuses = env.pool.status();
  const fits = (state: string) => (sub === "disable" ? state !== "disabled" : sub === "enable" ? state === "disabled" : true);
  return statuses.filter((status) => fits(status.state)).map((status) => status.name);
}

export function slashCompletion(env: SlashCompletionEnv): CompletionSource {
  const prompts = () => env.remote.within(listPromptCommands(env.pool), [], "the list of prompts");
  return async (line) => {
    const text = line.trimStart();
    if (!text.startsWith("/")) return undefined;
    if (/^\/\S*$/.test(text)) {
      const names = [...BUILTIN_COMMAND_NAMES, ...(env.customNames?.() ?? []), ...(await prompts()).map((command) => command.name)];
      return [names.map((name) => `/${name}`), text];
    }
    const sub = /^\/mcp\s+(\S*)$/.exec(text);
    if (sub) return [[...MCP_SUBCOMMANDS], sub[1] as string];
    const permissions = permissionWords(text);
    if (permissions) return permissions;
    const server = /^\/mcp\s+(login|logout|reconnect|disable|enable)\s+(\S*)$/.exec(text);
    if (server) return [serverNames(env, server[1] as string), server[2] as string];
    const prompt = /^\/(mcp__\S+)\s+(.*)$/s.exec(text);
    if (prompt) {
      const command = (await prompts()).find((candidate) => candidate.name === prompt[1]);
      return command ? argumentCompletion(command, prompt[2] as string, env.remote) : undefined;
    }
    return undefined;
  };
}

/** `/permissions`'s own words: add, remove, trust; after add, the list (or user|project, then the list). */
function permissionWords(text: string): [string[], string] | undefined {
  const sub = /^\/permissions\s+(\S*)$/.exec(text);
  if (sub) return [["add", "remove", "trust"], sub[1] as string];
  const list = /^\/permissions\s+add\s+(?:(user|project)\s+)?(\S*)$/.exec(text);
  if (list) return [list[1] ? ["allow", "ask", "deny"] : ["allow", "ask", "deny", "user", "project"], list[2] as string];
  return undefined;
}
