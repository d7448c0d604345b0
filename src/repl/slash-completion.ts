import { splitShellWords } from "../cli/shell-words.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import type { CompletionSource, Completions } from "./completion.ts";
import { assignWords } from "./prompt-arguments.ts";
import { listPromptCommands, type PromptCommand } from "./prompt-commands.ts";
import type { RemoteCompletions } from "./remote-completion.ts";
import { BUILTIN_COMMAND_NAMES, MCP_SUBCOMMANDS } from "./slash-commands.ts";

export interface SlashCompletionEnv {
  pool: Pick<McpToolPool, "status" | "serversOffering">;
  remote: RemoteCompletions;
}

/**
 * Tab in a slash command: the command's name (built-ins and every server's prompts), what follows
 * `/mcp` and the server after `/mcp login|logout`, and a prompt command's argument as the server
 * completes it (`completion/complete` with the arguments typed before it as context).
 */
export function slashCompletion(env: SlashCompletionEnv): CompletionSource {
  const prompts = () => env.remote.within(listPromptCommands(env.pool), [], "the list of prompts");
  return async (line) => {
    const text = line.trimStart();
    if (!text.startsWith("/")) return undefined;
    if (/^\/\S*$/.test(text)) {
      const names = [...BUILTIN_COMMAND_NAMES, ...(await prompts()).map((command) => command.name)];
      return [names.map((name) => `/${name}`), text];
    }
    const sub = /^\/mcp\s+(\S*)$/.exec(text);
    if (sub) return [[...MCP_SUBCOMMANDS], sub[1] as string];
    const server = /^\/mcp\s+(?:login|logout)\s+(\S*)$/.exec(text);
    if (server) return [env.pool.status().map((status) => status.name), server[1] as string];
    const prompt = /^\/(mcp__\S+)\s+(.*)$/s.exec(text);
    if (prompt) {
      const command = (await prompts()).find((candidate) => candidate.name === prompt[1]);
      return command ? argumentCompletion(command, prompt[2] as string, env.remote) : undefined;
    }
    return undefined;
  };
}

/**
 * The word being typed after a prompt command: `name=value` completes that argument's value, a bare
 * word the next positional one's. A word with quotes in it is left alone: what readline would insert
 * could not be told from the quoting.
 */
async function argumentCompletion(command: PromptCommand, args: string, remote: RemoteCompletions): Promise<Completions | undefined> {
  const word = /(\S*)$/.exec(args)?.[1] ?? "";
  if (/["'\\]/.test(word)) return undefined;
  let earlier: string[];
  try {
    earlier = splitShellWords(args.slice(0, args.length - word.length));
  } catch {
    return undefined;
  }
  const declared = command.prompt.arguments ?? [];
  const { values: given } = assignWords(earlier, declared);
  const named = /^([^=]+)=(.*)$/s.exec(word);
  const target = named ? declared.find((arg) => arg.name === named[1]) : declared.find((arg) => !(arg.name in given));
  if (!target) return undefined;
  const prefix = named ? `${target.name}=` : "";
  const value = named ? (named[2] as string) : word;
  const context = Object.fromEntries(Object.entries(given).filter(([name]) => name !== target.name));
  const values = await remote.values(command.server, command.client, { type: "ref/prompt", name: command.prompt.name }, { name: target.name, value }, context);
  // A value with a blank or a quote would need quoting, and would not extend the word as typed.
  return [values.filter((candidate) => !/[\s"'\\]/.test(candidate)).map((candidate) => `${prefix}${candidate}`), word];
}
