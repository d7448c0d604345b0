import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { runBash } from "../agent/tools/run-bash.ts";
import { environmentWithoutOwnSecrets } from "../system/own-secrets.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { Style } from "./tool-call-line.ts";

/** What one `!command` puts before the model: its output, cut past this many characters per stream. */
export const SHELL_OUTPUT_LIMIT = 30_000;
/** All the commands waiting for the next prompt together; the oldest go first past it. */
const PENDING_LIMIT = 60_000;
/** Lines of output shown at the terminal; the model still gets up to SHELL_OUTPUT_LIMIT. */
const SHOWN_LINES = 200;

/**
 * `!command` results waiting for the next prompt: the model sees what the user ran and what it
 * printed, as context in front of the user's next message (never a message of its own).
 */
export class ShellContext {
  private pending: string[] = [];

  add(entry: string): void {
    this.pending.push(entry);
    while (this.pending.length > 1 && this.pending.reduce((sum, text) => sum + text.length, 0) > PENDING_LIMIT) this.pending.shift();
  }

  /** The blocks to put before the next prompt, once. */
  take(): PromptBlock[] {
    const blocks = this.pending.map((text): PromptBlock => ({ type: "text", text }));
    this.pending = [];
    return blocks;
  }

  clear(): void {
    this.pending = [];
  }
}

export interface ShellCommandIo {
  cwd: string;
  /** Ctrl-C or Esc: the command's whole process tree is ended. */
  signal: AbortSignal;
  print(line: string): void;
  style: Style;
  context: ShellContext;
}

/**
 * Runs a line typed as `!command` with bash in the working directory: the user's own command, so no
 * permission question. Its output is shown, and kept (bounded) for the next prompt with the command.
 */
export async function runShellCommand(command: string, io: ShellCommandIo): Promise<void> {
  const run = await runBash(command, { cwd: io.cwd, env: environmentWithoutOwnSecrets(), limit: SHELL_OUTPUT_LIMIT, signal: io.signal });
  if (!run.ok) return io.print(io.style.red(`error: ${run.reason}`));
  const { exitCode, stdout, stderr } = run;
  const output = [stdout.text, stderr.text].filter(Boolean).join(stdout.text.endsWith("\n") || !stdout.text ? "" : "\n");
  const dropped = stdout.dropped + stderr.dropped;
  const ending = io.signal.aborted ? "cancelled" : `exit code ${exitCode}`;
  show(output, io);
  io.print(io.style.dim(`⎿ ${ending}${dropped ? `; ${dropped.toLocaleString("en-US")} more characters not kept` : ""} (the model sees this with your next prompt)`));
  const cut = dropped ? `\n[output cut: ${dropped.toLocaleString("en-US")} more characters not shown]` : "";
  io.context.add(`The user ran a shell command in the REPL (not a tool call):\n<command>${command}</command>\n<output ${io.signal.aborted ? 'cancelled="true"' : `exit_code="${exitCode}"`}>\n${output.replace(/\n$/, "")}${cut}\n</output>`);
}

function show(output: string, io: ShellCommandIo): void {
  const lines = output.replace(/\n$/, "").split("\n");
  if (output === "") return;
  for (const line of lines.slice(0, SHOWN_LINES)) io.print(sanitizeForTerminal(line));
  if (lines.length > SHOWN_LINES) io.print(io.style.dim(`… ${lines.length - SHOWN_LINES} more lines`));
}
