import type { ArgsDef } from "citty";
import { CliError } from "../terminal/cli-error.ts";
import { rejectUnknownFlags } from "./known-flags.ts";
import { rootArg } from "./root-flags.ts";
import { log } from "../log.ts";

/** The root command's own flags: `cat-code` starts the REPL, `cat-code -p "<prompt>"` print mode. */
export const agentArgs = {
  print: { type: "string", alias: "p", description: "Run one prompt to its end, print the answer and exit", valueHint: "prompt" },
  model: { type: "string", description: "The model (default: $CAT_CODE_MODEL, else settings' model, else a current Sonnet)", valueHint: "name" },
  thinking: { type: "boolean", description: "Let the model think before answering (budget 8000 tokens, or settings' thinking.budgetTokens)", negativeDescription: "Turn off thinking that settings.json turns on" },
  "allow-all": { type: "boolean", description: "Run every tool without asking for permission" },
  "mcp-config": { type: "string", description: "Read MCP servers from this file instead of ~/.cat-code/mcp.json", valueHint: "file" },
  "max-turns": { type: "string", description: "Model requests allowed per prompt (default 50)", valueHint: "n" },
  root: rootArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export interface AgentCommandArgs {
  _: string[];
  print?: string;
  model?: string;
  thinking?: boolean;
  "allow-all"?: boolean;
  "mcp-config"?: string;
  "max-turns"?: string;
}

/**
 * The root command's run. citty also runs it after a subcommand (`cat-code mcp list`), so it does
 * nothing when one was given: a positional at the root is always a subcommand's name.
 */
export async function runAgentCommand(args: AgentCommandArgs, rawArgs: string[], rootArgs: ArgsDef): Promise<void> {
  if (args._.length > 0) return;
  rejectUnknownFlags(rawArgs, rootArgs);
  const maxTurns = parseMaxTurns(args["max-turns"]);
  // Loaded here, so `cat-code mcp …` never pays for the SDK and the REPL.
  const [{ agentStartup }, { loadSettings }, { loadServerEntries, rootsFromArgs }, { cliAuth, openPool }, { declinedElicitation }, { replLoginHint }] = await Promise.all([
    import("./agent-startup.ts"),
    import("../settings/load-settings.ts"),
    import("./mcp/server-selection.ts"),
    import("./mcp/open-pool.ts"),
    import("../terminal/declined-elicitation.ts"),
    import("../terminal/render-status.ts"),
  ]);
  // settings.json: loaded once, its warnings shown once, on stderr; before the servers' entries, so
  // settings' env reaches their ${VAR}s and their processes.
  let settings = loadSettings({ cwd: process.cwd() });
  for (const warning of settings.warnings) log.warn(warning);
  const { model, thinking, maxTokens } = agentStartup({ flags: { model: args.model, thinking: args.thinking }, settings: settings.settings });
  const roots = rootsFromArgs(rawArgs);
  let entries = loadServerEntries({ "mcp-config": args["mcp-config"] });
  // A project's own servers wait for the user's word; only a person at a terminal can give it.
  if (args.print === undefined && process.stdin.isTTY) {
    const { askProjectApprovals } = await import("../repl/project-approval-question.ts");
    entries = await askProjectApprovals(entries);
    settings = await (await import("../repl/project-rules-question.ts")).askProjectRuleTrust(settings, process.cwd());
  } else {
    // Nobody is here to trust a project's new allow rules: they are left out, and that is said.
    const untrusted = (await import("../settings/untrusted-rules.ts")).untrustedRulesWarning(settings);
    if (untrusted) log.warn(untrusted);
  }
  // The servers may ask the user (elicitation): -p declines with a line on stderr, the REPL puts its form in place.
  // A server that wants a sign-in is NEEDS-AUTH at first; in the REPL, `/mcp login <name>` signs in.
  const auth = cliAuth({ "mcp-config": args["mcp-config"] });
  if (args.print === undefined) auth.loginHint = replLoginHint;
  const pool = openPool(entries, { roots, elicitation: declinedElicitation(), auth });
  const common = { model, thinking, maxTokens, cwd: process.cwd(), pool, allowAll: args["allow-all"] === true, maxTurns, settings };

  if (args.print !== undefined) {
    const prompt = args.print.trim() || (process.stdin.isTTY ? "" : (await Bun.stdin.text()).trim());
    if (!prompt) throw CliError.usage('-p needs a prompt: cat-code -p "<prompt>" (or pipe it on stdin)');
    const { runPrint } = await import("../repl/print-mode.ts");
    process.exitCode = await runPrint({ ...common, prompt, startupTimeoutMs: startupTimeout(process.env.CAT_CODE_MCP_STARTUP_TIMEOUT) });
    return;
  }
  const { runRepl } = await import("../repl/repl.ts");
  process.exitCode = await runRepl(common);
}

/** CAT_CODE_MCP_STARTUP_TIMEOUT: milliseconds print mode waits for the servers (default 30 s). */
function startupTimeout(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1) throw CliError.usage(`CAT_CODE_MCP_STARTUP_TIMEOUT must be a whole number of milliseconds, got '${text}'`);
  return ms;
}

function parseMaxTurns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw CliError.usage(`--max-turns must be a whole number of at least 1, got '${text}'`);
  return n;
}
