import { untilAborted } from "../system/until-aborted.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import type { Tool } from "../agent/tool.ts";
import { replLoginHint } from "../terminal/render-status.ts";
import { nearestNames } from "../terminal/suggest.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { alignColumnsWrapped } from "../terminal/wrapped-columns.ts";
import { McpToolAdapter } from "../mcp/index.ts";
import type { AgentRuntime } from "./agent-runtime.ts";
import type { LineCompleter } from "./tab-completion.ts";
import { replLogin, replLogout } from "./mcp-sign-in-commands.ts";
import { memoryCommand } from "./memory-edit-command.ts";
import { initCommand } from "./init-command.ts";
import { catCodeHome } from "../config/app-home.ts";
import { modelCommand } from "./model-command.ts";
import { replReconnect } from "./mcp-reconnect-command.ts";
import { replSetEnabled } from "./mcp-disable-command.ts";
import { projectSettingsPath } from "../settings/load-settings.ts";
import { mcpTable } from "./mcp-table.ts";
import { listPromptCommands, runPromptCommand, type PromptCommand } from "./prompt-commands.ts";
import { helpText } from "./help-text.ts";
import type { RemoteCompletions } from "./remote-completion.ts";
import { argumentAnswerCompleter } from "./prompt-argument-completion.ts";
import { runCompact } from "./compact-command.ts";
import { costText } from "./cost-command.ts";
import { contextText } from "./context-command.ts";
import { permissionsCommand } from "./permissions-command.ts";
import { resumeCommand, type ReplSessions } from "./resume-command.ts";
import type { CustomCommand } from "./custom-commands.ts";
import { customCommandTurn } from "./custom-command-run.ts";
import { hooksText } from "./hooks-command.ts";
import { agentsText } from "./agents-command.ts";
import { runRewind } from "./rewind-command.ts";
import type { PermissionSettings } from "../settings/permission-settings.ts";

/**
 * After a command: read the next line, leave, or send blocks as the user's turn (a server's prompt,
 * a custom command), with rules allowing tools while that turn runs (a user's command's allowed-tools).
 */
export type SlashOutcome = "continue" | "exit" | { send: PromptBlock[]; allow?: readonly string[] };

export interface SlashContext {
  runtime: AgentRuntime;
  print(text: string): void;
  /** Runs work the user may give up (a sign-in waiting for the browser): Ctrl-C or Esc aborts its signal. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The browser opener (default: the system's, honouring $BROWSER). */
  open?: (url: string) => Promise<boolean>;
  /** Asks one question at the terminal (a prompt's missing argument); null when input ended or `signal` aborted. */
  ask?: (question: string, signal: AbortSignal, complete?: LineCompleter) => Promise<string | null>;
  /** What Tab asks of servers; with it, Tab at a prompt argument's question offers the server's values. */
  completions?: RemoteCompletions;
  /** The session's permission rules, for /permissions. */
  permissions?: PermissionSettings;
  /** The terminal's width, to wrap long lists between words; absent when not a terminal. */
  columns?: number;
  /** Where sessions are saved, for /clear and /resume; absent when nothing is saved. */
  sessions?: ReplSessions;
  /** Opens a file in $VISUAL/$EDITOR, the terminal handed over; absent when not a terminal. */
  edit?: (path: string) => Promise<{ code: number } | { error: string }>;
  /** The custom commands (`.claude/commands/*.md` and the like), read when asked. */
  customCommands?: () => CustomCommand[];
  /** Puts text on the next prompt's line, to edit and send (a rewound prompt); at a terminal only. */
  startNextLine?: (text: string) => void;
}

interface SlashCommand {
  usage: string;
  help: string;
  run(args: string, context: SlashContext): SlashOutcome | Promise<SlashOutcome>;
}

const COMMANDS: Record<string, SlashCommand> = {
  help: {
    usage: "/help",
    help: "Show this list",
    // A server slow to list its prompts holds /help up only until Esc or Ctrl-C (then it is left out).
    run: async (_args, context): Promise<SlashOutcome> => {
      const prompts = await context.cancellable((signal) => listPromptCommands(context.runtime.pool, { signal }));
      context.print(helpText(Object.values(COMMANDS), prompts, context.columns, context.customCommands?.() ?? []));
      return "continue";
    },
  },
  mcp: {
    usage: "/mcp [tools | reconnect | login | logout | disable | enable] [server]",
    help: "Show the MCP servers and their state; /mcp tools lists their tools; /mcp reconnect restarts one (or every FAILED one); /mcp login signs in to a NEEDS-AUTH server; /mcp disable|enable takes one out or back (kept for the project)",
    run: async (args, context): Promise<SlashOutcome> => {
      const [sub = "", name = ""] = args.split(/\s+/, 2);
      const signIn = { pool: context.runtime.pool, print: context.print, cancellable: context.cancellable, open: context.open };
      if (args === "tools") context.print(mcpToolsText(context.runtime, context.columns));
      else if (args === "") context.print(mcpStatusText(context.runtime, context.columns));
      else if (sub === "login") await replLogin(name, signIn);
      else if (sub === "logout") await replLogout(name, signIn);
      else if (sub === "reconnect") await replReconnect(name, { ...signIn, loginHint: context.runtime.pool.authContext?.loginHint ?? replLoginHint });
      else if (sub === "disable" || sub === "enable") await replSetEnabled(sub, name, { ...signIn, settingsFile: projectSettingsPath(context.runtime.cwd), onToolsChanged: () => context.runtime.syncResourceTools() });
      else context.print(`Unknown: /mcp ${sanitizeForTerminal(args)}. Use /mcp, /mcp tools, /mcp reconnect [server], /mcp login <server>, /mcp logout <server>, /mcp disable <server> or /mcp enable <server>.`);
      return "continue";
    },
  },
  tools: { usage: "/tools", help: "List every tool the model can use, built-in and MCP", run: (_args, context) => (context.print(toolsText(context.runtime, context.columns)), "continue") },
  clear: {
    usage: "/clear",
    help: "Start a new conversation in a new session (the one before stays resumable; tools and servers stay)",
    run: (_args, context) => {
      const clear = () => context.runtime.clearConversation();
      if (context.sessions) context.sessions.recording.startNew(clear);
      else clear();
      context.print("Started a new conversation.");
      return "continue";
    },
  },
  compact: { usage: "/compact [instructions]", help: "Replace the conversation by a summary (say what to keep)", run: async (args, context): Promise<SlashOutcome> => (await runCompact(args, context), "continue") },
  cost: { usage: "/cost", help: "Tokens used and their cost in dollars", run: (_args, context) => (context.print(costText(context.runtime.usage)), "continue") },
  memory: {
    usage: "/memory",
    help: "List the memory files (AGENTS.md, CLAUDE.md) in the system prompt; at a terminal, open one in $VISUAL/$EDITOR",
    run: async (_args, context): Promise<SlashOutcome> => {
      const { runtime } = context;
      await memoryCommand({ ...context, memory: runtime.memory, home: catCodeHome(), cwd: runtime.cwd, reload: () => runtime.reloadMemory() });
      return "continue";
    },
  },
  model: { usage: "/model [id]", help: "Show the model and the known ones; /model <id> switches from the next request", run: (args, context) => (context.print(modelCommand(args, context.runtime)), "continue") },
  permissions: {
    usage: "/permissions [add [user] allow|ask|deny <rule> | remove <rule> | trust]",
    help: "List the permission rules and their files; add or remove one; trust the project's allow rules",
    run: async (args, context): Promise<SlashOutcome> => (await permissionsCommand(args, context.permissions, context.print), "continue"),
  },
  context: {
    usage: "/context",
    help: "What the next request costs, by part (tokens from the API's count_tokens, else an estimate), and how full the context window is",
    run: async (_args, context): Promise<SlashOutcome> => (context.print(await context.cancellable((signal) => contextText(context.runtime, signal))), "continue"),
  },
  resume: { usage: "/resume", help: "Pick one of this folder's sessions and go on with it (as cat-code --resume)", run: async (_args, context): Promise<SlashOutcome> => (await resumeCommand({ ...context, switched: () => (context.runtime.agentOrMissingKey(), context.runtime.conversationReplaced("resume")) }), "continue") },
  init: {
    usage: "/init",
    help: "Have the model write a starting AGENTS.md for this project (asks before replacing one)",
    run: async (_args, context): Promise<SlashOutcome> => {
      const text = await initCommand({ ...context, projectRoot: context.runtime.memory.gitRoot ?? context.runtime.cwd });
      return text === undefined ? "continue" : { send: [{ type: "text", text }] };
    },
  },
  hooks: { usage: "/hooks", help: "List the hooks (settings.json): the commands run at each event", run: (_args, context) => (context.print(hooksText(context.runtime.hooks.runner.config())), "continue") },
  agents: { usage: "/agents", help: "List the subagent types the task tool can start (.cat-code/agents, .claude/agents)", run: (_args, context) => (context.print(agentsText(context.runtime.agentTypes, context.columns)), "continue") },
  rewind: {
    usage: "/rewind [n]",
    help: "Restore the conversation, the files, or both to before a prompt of this session (or Esc Esc at an empty prompt); bash commands' changes are not tracked",
    run: async (args, context): Promise<SlashOutcome> => (await runRewind(args, context), "continue"),
  },
  exit: { usage: "/exit", help: "Leave cat-code (or Ctrl-D)", run: () => "exit" },
};
const ALIASES: Record<string, string> = { quit: "exit", "?": "help", "": "help" };

/** The built-in commands' names, without the slash: for Tab. */
export const BUILTIN_COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);
/** `/name` -> its help, for the live menu. */
export function builtinCommandHelp(): Map<string, string> {
  return new Map(Object.entries(COMMANDS).map(([name, command]) => [`/${name}`, command.help]));
}
/** What may follow `/mcp`: for Tab. */
export const MCP_SUBCOMMANDS: readonly string[] = ["tools", "reconnect", "login", "logout", "disable", "enable"];

/** Runs a line that starts with "/": a built-in command, or a server's prompt (`/mcp__<server>__<prompt>`). */
export async function runSlashCommand(line: string, context: SlashContext): Promise<SlashOutcome> {
  const [, name = "", args = ""] = /^\/(\S*)\s*(.*)$/s.exec(line.trim()) ?? [];
  const command = COMMANDS[ALIASES[name] ?? name];
  if (command) return command.run(args.trim(), context);
  const custom = context.customCommands?.().find((candidate) => candidate.name === name);
  if (custom) {
    const turn = customCommandTurn(custom, args, context.print);
    return { send: [{ type: "text", text: turn.text }], allow: turn.allow };
  }
  const prompts = name.startsWith("mcp__") ? await context.cancellable((signal) => promptCommandsOnceConnected(context.runtime, signal)) : [];
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (prompt) return sendPrompt(prompt, args, context);
  const near = nearestNames(name, [...BUILTIN_COMMAND_NAMES, ...(context.customCommands?.() ?? []).map((candidate) => candidate.name), ...prompts.map((candidate) => candidate.name)]);
  context.print(`Unknown command /${sanitizeForTerminal(name)}.${near.length ? ` Did you mean /${near[0]}?` : ""} /help lists the commands.`);
  return "continue";
}

/** A prompt command typed while the servers still connect waits for them (Esc or Ctrl-C gives up). */
async function promptCommandsOnceConnected(runtime: AgentRuntime, signal: AbortSignal): Promise<PromptCommand[]> {
  await untilAborted(runtime.connectMcp(), signal);
  return signal.aborted ? [] : listPromptCommands(runtime.pool, { signal });
}

async function sendPrompt(prompt: PromptCommand, args: string, context: SlashContext): Promise<SlashOutcome> {
  // Without a key nothing could be sent: say so before asking anything of the user or the server.
  const agent = context.runtime.agentOrMissingKey();
  if ("missing" in agent) {
    context.print(`error: ${agent.missing}`);
    return "continue";
  }
  const { ask = async () => null, completions } = context;
  const completeArgument = completions && ((command: PromptCommand, argument: string, given: Record<string, string>) => argumentAnswerCompleter(command, argument, given, completions));
  const blocks = await runPromptCommand(prompt, args, { print: context.print, ask, cancellable: context.cancellable, completeArgument });
  return blocks ? { send: blocks } : "continue";
}

/** The `/mcp` table (mcp-table.ts) under `MCP servers:`. */
export function mcpStatusText(runtime: AgentRuntime, columns?: number): string {
  const statuses = runtime.pool.status();
  if (statuses.length === 0) return "MCP servers: none configured (add them to ~/.cat-code/mcp.json, or pass --mcp-config <file>)";
  return ["MCP servers:", ...mcpTable(statuses, runtime.pool.authContext?.loginHint ?? replLoginHint, columns && columns - 2).map((line) => `  ${line}`)].join("\n");
}

function mcpToolsText(runtime: AgentRuntime, columns?: number): string {
  const tools = runtime.registry.list().filter((tool): tool is McpToolAdapter => tool instanceof McpToolAdapter);
  const pending = runtime.pool.status().filter((s) => s.state === "pending").map((s) => s.name);
  const still = pending.length ? `(still connecting: ${pending.map((n) => sanitizeForTerminal(n)).join(", ")})` : "";
  if (tools.length === 0) return still || "No MCP tools. /mcp shows the servers.";
  return [...toolRows(tools, columns), ...(still ? [still] : [])].join("\n");
}

function toolsText(runtime: AgentRuntime, columns?: number): string {
  const tools = runtime.registry.list();
  const builtin = tools.filter((tool) => !(tool instanceof McpToolAdapter));
  const mcp = tools.filter((tool) => tool instanceof McpToolAdapter);
  const pending = runtime.pool.status().some((s) => s.state === "pending");
  return [
    "Built-in:",
    ...toolRows(builtin, columns && columns - 2).map((line) => `  ${line}`),
    "MCP:",
    ...(mcp.length ? toolRows(mcp, columns && columns - 2).map((line) => `  ${line}`) : [`  ${pending ? "(servers still connecting)" : "none"}`]),
  ].join("\n");
}

function toolRows(tools: Tool[], columns?: number): string[] {
  return alignColumnsWrapped(
    tools.map((tool) => [sanitizeForTerminal(tool.name), tool.isReadOnly ? "read-only" : "", sanitizeForTerminal(firstLine(tool.description))]),
    columns,
  );
}
