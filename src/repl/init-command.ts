import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatBytes } from "../system/format-bytes.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** What /init needs of the REPL. */
export interface InitIo {
  /** Where AGENTS.md goes: the git root, or the working directory outside a repository. */
  projectRoot: string;
  print(text: string): void;
  ask?: (question: string, signal: AbortSignal) => Promise<string | null>;
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * What the model is asked by /init, after Claude Code's: look at the project, then write a short
 * AGENTS.md for the agents that work in it after. The write is a write_file call like any other,
 * so the user sees the whole file and approves it (or not) at the permission question.
 */
export function initPrompt(path: string, existing: boolean): string {
  return [
    existing
      ? `Please analyze this codebase and improve the existing AGENTS.md at ${path}: read it first, keep what is right, fix what is stale, and add what is missing.`
      : `Please analyze this codebase and create an AGENTS.md file at ${path}, which will be given to future coding agents working in this repository.`,
    "",
    "What to include:",
    "1. The commands used most: build, lint, run the tests, and run a single test.",
    "2. The high-level architecture: what a reader would need several files to see.",
    "3. The conventions the code follows (naming, layout, error handling, testing), where they are clear from the code.",
    "",
    "Take what matters from README.md, CLAUDE.md, .cursor/rules/, .cursorrules and .github/copilot-instructions.md if there are any.",
    "Do not list every file, do not repeat generic advice, and do not invent what you cannot find in the project. Keep it short.",
    `Begin the file with "# AGENTS.md" and a line saying it guides coding agents in this repository. Write it with write_file to ${path}.`,
  ].join("\n");
}

/**
 * `/init`: the prompt above, sent as the user's turn. An AGENTS.md that exists is not replaced
 * without a yes: the model would rewrite what someone wrote by hand.
 */
export async function initCommand(io: InitIo): Promise<string | undefined> {
  const path = join(io.projectRoot, "AGENTS.md");
  const existing = existsSync(path);
  if (existing) {
    const ask = io.ask;
    const size = formatBytes(statSync(path).size);
    const answer = ask ? await io.cancellable((signal) => ask(`${sanitizeForTerminal(path)} exists (${size}). Have the model rewrite it? [y/N] `, signal)) : null;
    if (!/^y(es)?$/i.test(answer?.trim() ?? "")) {
      io.print("(AGENTS.md is left as it is)");
      return undefined;
    }
  }
  io.print(`⎿ asking the model to ${existing ? "improve" : "write"} ${sanitizeForTerminal(path)}`);
  return initPrompt(path, existing);
}
