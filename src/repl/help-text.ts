import { wrapIndented } from "../terminal/text-wrap.ts";
import { alignColumnsWrapped } from "../terminal/wrapped-columns.ts";
import type { CustomCommand } from "./custom-commands.ts";
import { promptHelpRows, type PromptCommand } from "./prompt-commands.ts";

/** A usage wider than this, or a third of the window (`/mcp [tools | reconnect …]`), takes a line of its own rather than widening the column for all. */
const WIDEST_USAGE = 40;

export const KEYS_HELP = [
  "Esc or Ctrl-C cancels a running turn; Ctrl-C or Ctrl-D twice at an empty prompt exits.",
  "!cmd runs a shell command; @path attaches a file; \\ + Enter or Alt+Enter starts a new line; Ctrl-R searches earlier prompts.",
  "Shift+Tab cycles the permission mode; Ctrl-T shows or hides the todo list; Esc Esc at an empty prompt rewinds.",
];

/**
 * `/help`: each command's usage and what it does, then the keys, then the custom commands and the servers' prompts. At a
 * terminal (`columns`), descriptions wrap between words in their column; a pipe gets a row per line.
 */
export function helpText(commands: readonly { usage: string; help: string }[], prompts: PromptCommand[], columns?: number, custom: readonly CustomCommand[] = []): string {
  const width = columns === undefined ? undefined : Math.max(20, columns - 2);
  const widest = width === undefined ? undefined : Math.min(WIDEST_USAGE, Math.floor(width / 3));
  const table = (rows: string[][]) => alignColumnsWrapped(rows, width, "  ", widest).map((line) => (line === "" ? "" : `  ${line}`));
  const lines = [
    ...table(commands.map((command) => [command.usage, command.help])),
    ...KEYS_HELP.flatMap((line) => (width === undefined ? [`  ${line}`] : wrapIndented(line, width + 2, "  "))),
  ];
  if (custom.length > 0) {
    const rows = custom.map((command) => [`/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""}`, command.description]);
    lines.push("Custom commands (.cat-code/commands, .claude/commands; $ARGUMENTS is what follows the name):", ...table(rows));
  }
  if (prompts.length > 0) lines.push("MCP prompts (arguments in order, or name=value; Tab completes):", ...table(promptHelpRows(prompts)));
  return lines.join("\n");
}
