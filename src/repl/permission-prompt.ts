import type { PermissionGate } from "../agent/permission.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

const MAX_ARGS_CHARS = 300;

/** Asks one question and resolves the answer; null when input ended or the turn was cancelled. */
export type Ask = (question: string, signal?: AbortSignal) => Promise<string | null>;

/**
 * The REPL's permission gate: `Allow mcp__x__y {args}? [y]es / [n]o / [a]lways for this tool`.
 * "always" holds for the tool until the REPL exits. No answer (Ctrl-D, Ctrl-C) is a no.
 */
export function interactivePermissions(ask: Ask, before?: () => void): PermissionGate {
  const alwaysAllowed = new Set<string>();
  return async ({ tool, input, signal }) => {
    if (alwaysAllowed.has(tool.name)) return "allow";
    before?.();
    const args = sanitizeForTerminal(JSON.stringify(input));
    const shown = args.length > MAX_ARGS_CHARS ? `${args.slice(0, MAX_ARGS_CHARS - 1)}…` : args;
    const question = `Allow ${sanitizeForTerminal(tool.name)} ${shown}? [y]es / [n]o / [a]lways for this tool `;
    for (;;) {
      const answer = await ask(question, signal);
      if (answer === null) return "deny";
      switch (answer.trim().toLowerCase()) {
        case "y":
        case "yes":
          return "allow";
        case "a":
        case "always":
          alwaysAllowed.add(tool.name);
          return "allow";
        case "n":
        case "no":
          return "deny";
        // Anything else, an empty line included, asks again: a stray Enter should not decide.
      }
    }
  };
}
