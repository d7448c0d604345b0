import type { ArgsDef } from "citty";
import { CliError } from "../terminal/cli-error.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { nearestNames } from "../terminal/suggest.ts";
import { lastValue, parseFlags, subcommandWord } from "./agent-flags.ts";
import { rejectUnknownFlags } from "./known-flags.ts";
import { rootArg } from "./root-flags.ts";
import { log } from "../log.ts";
import { parsePermissionMode, type PermissionMode } from "../system/permission-mode-name.ts";

/** The root command's own flags: `cat-code` starts the REPL, `cat-code -p "<prompt>"` print mode. */
export const agentArgs = {
  print: { type: "boolean", alias: "p", description: "Print mode: run the prompt (and stdin) to its end, print the answer, exit" },
  model: { type: "string", description: "The model (default: $CAT_CODE_MODEL, else settings' model, else a current Sonnet)", valueHint: "name" },
  thinking: { type: "boolean", description: "Let the model think before answering (budget 8000 tokens, or settings' thinking.budgetTokens)", negativeDescription: "Turn off thinking that settings.json turns on" },
  continue: { type: "boolean", alias: "c", description: "Go on with the latest session of this folder" },
  resume: { type: "string", alias: "r", description: "Go on with a session: its id, or none to pick from a list", valueHint: "id" },
  "output-format": { type: "string", description: "With -p: text (default), json (one result object) or stream-json (an event per line)", valueHint: "format" },
  allowedTools: { type: "string", description: 'Run tools these rules allow without asking, for this session ("Bash(npm test:*),Read")', valueHint: "rules" },
  disallowedTools: { type: "string", description: "Never run tools these rules name, for this session", valueHint: "rules" },
  "allow-all": { type: "boolean", description: "Run every tool without asking for permission" },
  "permission-mode": { type: "string", description: "Start in this permission mode: default, acceptEdits (file edits in the project run unasked) or plan (read only, until you accept a plan)", valueHint: "mode" },
  "mcp-config": { type: "string", description: "Read MCP servers from this file instead of ~/.cat-code/mcp.json", valueHint: "file" },
  "strict-mcp-config": { type: "boolean", description: "With --mcp-config: only its servers (Claude Code's flag; cat-code's --mcp-config already uses only them)" },
  "max-turns": { type: "string", description: "Model requests allowed per prompt (default 50)", valueHint: "n" },
  root: rootArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

/**
 * The root command's run. citty also runs it after a subcommand (`cat-code mcp list`), so it does
 * nothing when the first word names one; any other word is the prompt (`cat-code "fix the tests"`).
 */
export async function runAgentCommand(rawArgs: string[], rootArgs: ArgsDef, subcommands: readonly string[]): Promise<void> {
  if (subcommandWord(rawArgs, rootArgs, subcommands)) return;
  rejectUnknownFlags(rawArgs, rootArgs);
  const flags = parseFlags(rawArgs, rootArgs);
  const print = flags.booleans.get("print") === true;
  const prompt = onePrompt(flags.positionals, subcommands);
  const maxTurns = parseMaxTurns(lastValue(flags, "max-turns"));
  const outputFormat = parseOutputFormat(lastValue(flags, "output-format"));
  const modeFlag = parseModeFlag(lastValue(flags, "permission-mode"));
  // Loaded here, not by main.ts with the flags: the rule syntax pulls in the shell-command tables,
  // which `--version` and every `mcp …` command would otherwise load (issue 32).
  const { splitRules } = await import("../system/permission-rule-syntax.ts");
  const rules = { allow: splitRules(flags.values.get("allowedTools") ?? []), deny: splitRules(flags.values.get("disallowedTools") ?? []) };
  if (outputFormat !== undefined && !print) throw CliError.usage("--output-format is for print mode: add -p");
  // Claude Code's --mcp-config adds to the configured servers unless --strict-mcp-config; cat-code's always replaces them.
  if (flags.booleans.get("strict-mcp-config") === true && lastValue(flags, "mcp-config") === undefined) {
    throw CliError.usage("--strict-mcp-config uses only the servers of --mcp-config <file>: give that file too");
  }
  // Loaded here, so `cat-code mcp …` never pays for the SDK and the REPL.
  const [{ agentStartup }, { loadServerEntries, rootsFromArgs }, { cliAuth, openPool }, { declinedElicitation }, { replLoginHint }, { catCodeHome }, { chooseConversation }, { withDisabledServers }] = await Promise.all([
    import("./agent-startup.ts"),
    import("./mcp/server-selection.ts"),
    import("./mcp/open-pool.ts"),
    import("../terminal/declined-elicitation.ts"),
    import("../terminal/render-status.ts"),
    import("../config/app-home.ts"),
    import("./conversation-choice.ts"),
    import("../mcp/config/configured-servers.ts"),
  ]);
  // A mistyped rule would allow or deny nothing, silently: checked before anything starts.
  if (rules.allow.length || rules.deny.length) (await import("./rule-flags.ts")).checkedRules(rules);
  // settings.json: loaded once, its warnings shown once, on stderr.
  const { loadSettings } = await import("../settings/load-settings.ts");
  let settings = loadSettings({ cwd: process.cwd() });
  for (const warning of settings.warnings) log.warn(warning);
  // Before the servers' entries: settings' env reaches their ${VAR}s and their processes.
  const startupFlags = { model: lastValue(flags, "model"), thinking: flags.booleans.get("thinking") };
  let { model, thinking, maxTokens } = agentStartup({ flags: startupFlags, settings: settings.settings });
  const roots = rootsFromArgs(rawArgs);
  const home = catCodeHome();
  const cwd = process.cwd();
  // Before any server starts: a wrong id, or a list the user leaves, costs nothing.
  const choice = await chooseConversation({ home, cwd, print, continueLatest: flags.booleans.get("continue") === true, resume: lastValue(flags, "resume") });
  if (choice === "none") return;
  const mcpConfig = lastValue(flags, "mcp-config");
  let entries = loadServerEntries({ "mcp-config": mcpConfig });
  // A project's own servers wait for the user's word; only a person at a terminal can give it.
  if (!print && process.stdin.isTTY) {
    const { askProjectApprovals } = await import("../repl/project-approval-question.ts");
    entries = await askProjectApprovals(entries);
    settings = await (await import("../repl/project-trust-question.ts")).askProjectTrust(settings, process.cwd());
    // A project's model or thinking trusted just now holds from this session on.
    ({ model, thinking, maxTokens } = agentStartup({ flags: startupFlags, settings: settings.settings }));
  } else {
    // Nobody is here to trust a project's new allow rules, model or thinking: they are left out, and that is said.
    const { untrustedRulesWarning, untrustedSettingsWarning } = await import("../settings/untrusted-rules.ts");
    for (const warning of [untrustedRulesWarning(settings), untrustedSettingsWarning(settings)]) if (warning) log.warn(warning);
  }
  // The servers may ask the user (elicitation): -p declines with a line on stderr, the REPL puts its form in place.
  // A server that wants a sign-in is NEEDS-AUTH at first; in the REPL, `/mcp login <name>` signs in.
  const auth = cliAuth({ "mcp-config": mcpConfig });
  if (!print) auth.loginHint = replLoginHint;
  // A server the project disabled (`/mcp disable`) is not started; `/mcp enable` starts it.
  entries = withDisabledServers(entries, settings.settings.disabledMcpServers);
  const pool = openPool(entries, { roots, elicitation: declinedElicitation(), auth });
  const maxMcpOutputTokens = mcpOutputTokens(process.env.MAX_MCP_OUTPUT_TOKENS) ?? settings.settings.maxMcpOutputTokens;
  const permissionMode = modeFlag ?? settings.settings.permissions.defaultMode;
  const common = { model, thinking, maxTokens, cwd, pool, allowAll: flags.booleans.get("allow-all") === true, maxTurns, home, resumed: choice, settings, maxMcpOutputTokens, permissionMode };

  if (print) {
    const { printPrompt } = await import("./print-prompt.ts");
    const text = await printPrompt(prompt);
    const { runPrint } = await import("../repl/print-mode.ts");
    process.exitCode = await runPrint({ ...common, prompt: text, outputFormat, rules, startupTimeoutMs: startupTimeout(process.env.CAT_CODE_MCP_STARTUP_TIMEOUT) });
    return;
  }
  const { ReplController } = await import("../repl/repl-controller.ts");
  process.exitCode = await new ReplController({ ...common, firstPrompt: prompt, rules }).run();
}

/** The words left after the flags: one prompt, quoted. Several words are more likely a typo'd command. */
function onePrompt(words: string[], subcommands: readonly string[]): string | undefined {
  if (words.length <= 1) return words[0];
  const near = nearestNames(words[0] as string, [...subcommands]);
  const hint = near.length ? `; '${sanitizeForTerminal(words[0] as string)}' is no command (did you mean ${near.join(", ")}?)` : "";
  throw CliError.usage(`cat-code takes one prompt: quote it, as in cat-code "${sanitizeForTerminal(words.join(" "))}"${hint}`);
}

function parseOutputFormat(text: string | undefined): "text" | "json" | "stream-json" | undefined {
  if (text === undefined) return undefined;
  if (text === "text" || text === "json" || text === "stream-json") return text;
  throw CliError.usage(`--output-format must be text, json or stream-json, got '${sanitizeForTerminal(text)}'`);
}

/** CAT_CODE_MCP_STARTUP_TIMEOUT: the most milliseconds print mode waits for all servers (default: each server's own timeout). */
function startupTimeout(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1) throw CliError.usage(`CAT_CODE_MCP_STARTUP_TIMEOUT must be a whole number of milliseconds, got '${text}'`);
  return ms;
}

/** MAX_MCP_OUTPUT_TOKENS, as Claude Code names it: the tokens of one MCP tool result the model gets (tools/output-limit.ts). */
function mcpOutputTokens(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const tokens = Number(text);
  if (!Number.isInteger(tokens) || tokens < 1) throw CliError.usage(`MAX_MCP_OUTPUT_TOKENS must be a whole number of tokens of at least 1, got '${sanitizeForTerminal(text)}'`);
  return tokens;
}

function parseModeFlag(text: string | undefined): PermissionMode | undefined {
  if (text === undefined) return undefined;
  const parsed = parsePermissionMode(text);
  if (!parsed.ok) throw CliError.usage(`--permission-mode: ${sanitizeForTerminal(parsed.error)}`);
  return parsed.mode;
}

function parseMaxTurns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw CliError.usage(`--max-turns must be a whole number of at least 1, got '${sanitizeForTerminal(text)}'`);
  return n;
}

