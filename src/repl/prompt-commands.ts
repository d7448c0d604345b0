import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { log } from "../log.ts";
import { type McpClient, McpError, type ServerPool, namespacedToolName, stableHash, withSuffix } from "../mcp/index.ts";
import type { Prompt } from "../mcp/protocol.ts";
import { cutText } from "../system/cut-text.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { LineCompleter } from "./tab-completion.ts";
import { askMissing, missingRequired, parsePromptArguments } from "./prompt-arguments.ts";
import { promptBlocks } from "./prompt-messages.ts";

/** A server's prompt as a slash command: `/mcp__<server>__<prompt>`. */
export interface PromptCommand {
  /** Without the slash; sanitized and bounded as a tool name is. */
  name: string;
  server: string;
  client: Pick<McpClient, "getPrompt" | "offers" | "complete">;
  prompt: Prompt;
}

export type PromptServers = Pick<ServerPool, "serversOffering">;

/**
 * The prompt commands of every connected server that offers prompts, in config order. Each client
 * keeps its list for the connection (until the server says it changed), so asking again is cheap.
 * A server whose list fails is left out with a debug line; the others stay.
 */
export async function listPromptCommands(pool: PromptServers, options: { signal?: AbortSignal } = {}): Promise<PromptCommand[]> {
  const servers = pool.serversOffering("prompts");
  const lists = await Promise.all(
    servers.map(({ name, client }) =>
      client.listPrompts({ signal: options.signal }).catch((error: Error) => {
        log.debug(`${name}: could not list its prompts: ${error.message}`);
        return [];
      }),
    ),
  );
  const commands: PromptCommand[] = [];
  const taken = new Set<string>();
  servers.forEach(({ name: server, client }, i) => {
    for (const prompt of lists[i] ?? []) {
      let name = namespacedToolName(server, prompt.name);
      // Two prompts that sanitize to one name ("a.b" and "a_b") both stay, the second told apart.
      if (taken.has(name)) name = withSuffix(name, stableHash(`${server}\u0000${prompt.name}`));
      taken.add(name);
      commands.push({ name, server, client, prompt });
    }
  });
  return commands;
}

/** `/mcp__everything__args-prompt <city> [state]`: required arguments in <>, optional in []. */
export function promptUsage(command: PromptCommand): string {
  const args = (command.prompt.arguments ?? []).map(({ name, required }) => {
    const shown = cutText(sanitizeForTerminal(name), 40);
    return required ? `<${shown}>` : `[${shown}]`;
  });
  return [`/${command.name}`, ...args].join(" ");
}

/** Beyond this many, /help names how many more prompt commands there are instead of listing them. */
const MAX_HELP_ROWS = 50;

/** The rows of /help's "MCP prompts" part: usage and the first line of the description. */
export function promptHelpRows(commands: PromptCommand[]): string[][] {
  const rows = commands.slice(0, MAX_HELP_ROWS).map((command) => {
    const about = command.prompt.description ?? command.prompt.title ?? "";
    return [promptUsage(command), cutText(sanitizeForTerminal(firstLine(about)), 200)];
  });
  if (commands.length > MAX_HELP_ROWS) rows.push([`… and ${commands.length - MAX_HELP_ROWS} more (Tab after /mcp__ completes them)`, ""]);
  return rows;
}

export interface PromptCommandIo {
  print(line: string): void;
  /** One question at the terminal, with what Tab completes there: null when input ended (Ctrl-D) or `signal` aborted. */
  ask(question: string, signal: AbortSignal, complete?: LineCompleter): Promise<string | null>;
  /** Tab at an argument's question: the server's values for it, the arguments given so far as context. */
  completeArgument?(command: PromptCommand, argument: string, given: Record<string, string>): LineCompleter;
  /** Runs work that Esc or Ctrl-C gives up (its signal aborts). */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * Runs `/<command> <args>`: the arguments as typed, the missing required ones asked for, then
 * `prompts/get`. Resolves the blocks to send as the user's turn, or undefined when there is nothing
 * to send (a line said why: a bad argument, a cancel, the server's error).
 */
export async function runPromptCommand(command: PromptCommand, argsText: string, io: PromptCommandIo): Promise<PromptBlock[] | undefined> {
  const declared = command.prompt.arguments ?? [];
  const parsed = parsePromptArguments(argsText, declared);
  if (!parsed.ok) {
    io.print(`error: /${command.name}: ${sanitizeForTerminal(parsed.error)}`);
    return undefined;
  }
  const missing = missingRequired(declared, parsed.values);
  if (missing.length > 0) {
    const answers = await io.cancellable((signal) =>
      askMissing(missing, parsed.values, (question, arg, given) => io.ask(question, signal, io.completeArgument?.(command, arg.name, given))),
    );
    if (answers === null) {
      io.print("(cancelled: nothing was sent)");
      return undefined;
    }
    Object.assign(parsed.values, answers);
  }
  try {
    const result = await io.cancellable((signal) => command.client.getPrompt(command.prompt.name, parsed.values, { signal }));
    const blocks = promptBlocks(command.server, result);
    if (blocks.length === 0) {
      io.print(`${sanitizeForTerminal(command.server)} gave no messages for /${command.name}: nothing was sent`);
      return undefined;
    }
    io.print(`⎿ sent prompt ${command.name} (${result.messages.length} message(s))`);
    return blocks;
  } catch (error) {
    if (error instanceof McpError && error.isCancelled) io.print("(cancelled: nothing was sent)");
    else io.print(`error: ${sanitizeForTerminal(command.server)} could not give prompt /${command.name}: ${cutText(sanitizeForTerminal((error as Error).message), 500)}`);
    return undefined;
  }
}
