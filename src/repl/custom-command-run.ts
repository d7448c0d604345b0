import { parseRule } from "../agent/permission-rules.ts";
import { wrapperOnlyProblem } from "../system/permission-rule-syntax.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { expandArguments } from "./command-file.ts";
import type { CustomCommand } from "./custom-commands.ts";

/** What typing `/name args` sends: the prompt, and the rules its turn runs under. */
export interface CustomCommandTurn {
  text: string;
  /** allowed-tools of a user's command that parse; none for a project's command. */
  allow: string[];
}

/**
 * `/name args` for a custom command: its prompt with the arguments filled in, and what it asks to
 * run without a question. A user's own command gets its allowed-tools for the turn; a project's
 * command is a project file, so its allowed-tools are shown and not applied (the question asks as
 * usual), as a project's allow rules wait for the user's trust.
 */
export function customCommandTurn(command: CustomCommand, args: string, print: (line: string) => void): CustomCommandTurn {
  const allow: string[] = [];
  for (const rule of command.allowedTools) {
    const parsed = parseRule(rule);
    const problem = parsed.ok ? wrapperOnlyProblem(parsed.rule) : parsed.error;
    if (problem) print(`warning: /${command.name}: allowed-tools '${sanitizeForTerminal(rule)}' is left out: ${sanitizeForTerminal(problem)}`);
    else allow.push(rule);
  }
  const from = command.scope === "project" ? "project command" : "your command";
  print(`⎿ /${command.name} (${from}, ${sanitizeForTerminal(command.path)})`);
  if (command.scope === "project" && allow.length) {
    print(`⎿ its allowed-tools (${allow.map((rule) => sanitizeForTerminal(rule)).join(", ")}) are not applied: a project's file does not grant permissions`);
    return { text: expandArguments(command.body, args), allow: [] };
  }
  return { text: expandArguments(command.body, args), allow };
}
