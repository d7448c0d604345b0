#!/usr/bin/env bun
// Only what `--version` and `--help` need is imported statically; the MCP and agent code (and the
// SDKs under it) is imported by the command that runs, so the build splits it into chunks of its own.
import { defineCommand, renderUsage, runCommand, type CommandDef } from "citty";
import { COMMIT, VERSION } from "../version.ts";
import { agentArgs, runAgentCommand } from "./agent-command.ts";
import { subcommandWord } from "./agent-flags.ts";
import { CliError, ExitCode } from "../terminal/cli-error.ts";
import { guardStdout } from "../terminal/output.ts";
import { runCleanups } from "../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

const rootArgs = {
  version: { type: "boolean", alias: "v", description: "Print the version" },
  ...agentArgs,
} as const;

const subCommands = {
  mcp: () => import("./mcp/mcp-command.ts").then((m) => m.default),
};

/** `cat-code` alone starts the agent REPL; `-p` runs one prompt; `mcp …` inspects servers. */
const root = defineCommand({
  meta: { name: "cat-code", version: VERSION, description: "A coding agent whose tools plug in through MCP" },
  args: rootArgs,
  subCommands,
  run: ({ rawArgs }) => runAgentCommand(rawArgs, rootArgs, Object.keys(subCommands)),
});
/** `cat-code "fix the tests"`: a first word that names no subcommand is the REPL's first prompt. */
const promptRoot = defineCommand({ ...root, subCommands: undefined });

/** Runs the command line; every error becomes one line of text and an exit code, never a stack. */
export async function main(rawArgs: string[]): Promise<number> {
  guardStdout();
  // The logger (consola) is loaded only when needed: `--version` and `--help` stay light.
  if (rawArgs.includes("--verbose")) (await import("../log.ts")).enableDebugLogging();
  try {
    if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
      console.log(`cat-code ${VERSION}${COMMIT ? ` (${COMMIT})` : ""}`);
      return ExitCode.Ok;
    }
    const helpAt = rawArgs.findIndex((arg) => arg === "--help" || arg === "-h");
    const separator = rawArgs.indexOf("--");
    if (helpAt !== -1 && (separator === -1 || helpAt < separator)) {
      console.log(forStream(await renderUsage(...(await resolveCommand(root, rawArgs))), process.stdout));
      return ExitCode.Ok;
    }
    (await import("../terminal/sanitized-log.ts")).sanitizeLogOutput();
    const word = subcommandWord(rawArgs, rootArgs, Object.keys(subCommands)) as keyof typeof subCommands | undefined;
    // `cat-code mcp …` goes straight to its command: through the root, citty would first parse the
    // whole line against the agent's flags for nothing (~0.4 ms of a warm command's CPU, issue 32).
    if (word === "mcp" && rawArgs[0] === word) await (await import("./mcp/mcp-command.ts")).runMcpCommand(rawArgs.slice(1));
    else await runCommand(word ? root : promptRoot, { rawArgs });
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.Ok;
  } catch (error) {
    return reportError(error, rawArgs);
  } finally {
    await runCleanups();
  }
}

async function reportError(error: unknown, rawArgs: string[]): Promise<number> {
  if (error instanceof CliError) {
    // Messages quote what servers said (their stderr, their errors): nothing in them may drive the terminal.
    if (!error.silent) console.error(`error: ${sanitizeForTerminal(error.message, { keepNewlines: true })}`);
    return error.exitCode;
  }
  // citty's own errors: an unknown command, a missing argument.
  if (error instanceof Error && error.name === "CLIError") {
    console.error(forStream(await renderUsage(...(await resolveCommand(root, rawArgs))), process.stderr));
    console.error(`error: ${sanitizeForTerminal(error.message)}`);
    return ExitCode.Usage;
  }
  const message = sanitizeForTerminal((error as Error)?.message ?? String(error));
  console.error(`internal error: ${message} (a bug in cat-code; CAT_CODE_DEBUG=1 shows the stack)`);
  if (process.env.CAT_CODE_DEBUG) console.error((error as Error)?.stack);
  return ExitCode.Internal;
}

/** citty colours its usage text; a pipe or a file gets it plain. */
function forStream(text: string, stream: { isTTY?: boolean }): string {
  return stream.isTTY ? text : Bun.stripANSI(text);
}

/** The subcommand the arguments lead to, and its parent, for usage text. */
async function resolveCommand(command: CommandDef<any>, rawArgs: string[], parent?: CommandDef<any>): Promise<[CommandDef<any>, CommandDef<any>?]> {
  const subCommands = typeof command.subCommands === "function" ? await command.subCommands() : await command.subCommands;
  const next = rawArgs.find((arg) => !arg.startsWith("-"));
  const loader = next && subCommands ? subCommands[next] : undefined;
  if (!loader) return [command, parent];
  const sub = typeof loader === "function" ? await loader() : await loader;
  return resolveCommand(sub as CommandDef<any>, rawArgs.slice(rawArgs.indexOf(next as string) + 1), command);
}

// `Bun.build({ compile })` leaves import.meta.main false in Windows executables (oven-sh/bun#30084):
// the binary would exit 0 having done nothing. scripts/build.ts defines CAT_CODE_COMPILED instead.
declare const CAT_CODE_COMPILED: boolean | undefined;
if (import.meta.main || (typeof CAT_CODE_COMPILED === "boolean" && CAT_CODE_COMPILED)) {
  const code = await main(process.argv.slice(2));
  process.exit(code);
}
