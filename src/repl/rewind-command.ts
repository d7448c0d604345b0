import type { FilesRewind, PromptCheckpoint } from "../agent/checkpoints/session-checkpoints.ts";
import { displayPath } from "../agent/tools/workspace-path.ts";
import { clockTime } from "../terminal/clock-time.ts";
import { alignColumns, cutToColumns, firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";

export interface RewindContext {
  runtime: AgentRuntime;
  print(text: string): void;
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  ask?: (question: string, signal: AbortSignal) => Promise<string | null>;
  columns?: number;
  startNextLine?: (text: string) => void;
}

/** Said above the list, as Claude Code says it: what a rewind cannot undo. */
export const REWIND_HEADER = "Rewind to before a prompt: the conversation, the files, or both. Only changes made by write_file and edit_file are tracked; changes made by bash commands are not.";

type Choice = { label: string; conversation: boolean; files: boolean };
const CHOICES: Choice[] = [
  { label: "conversation and files", conversation: true, files: true },
  { label: "conversation only", conversation: true, files: false },
  { label: "files only", conversation: false, files: true },
];

/**
 * `/rewind` (and Esc Esc at an empty prompt): the session's prompts, newest first, with when each
 * was sent and how many files its tools changed; the one picked, and what to restore to before it.
 * The conversation is cut where that prompt began (the session file records it, so --resume shows
 * the rewound conversation); the files are put back as the prompt's checkpoint kept them.
 */
export async function runRewind(args: string, context: RewindContext): Promise<void> {
  const { runtime, print } = context;
  const agent = runtime.agentOrMissingKey();
  if ("missing" in agent) return print(`error: ${agent.missing}`);
  const prompts = runtime.checkpoints.prompts();
  if (prompts.length === 0) return print("Nothing to rewind: no prompt was sent in this session yet (or it is not saved).");
  print(REWIND_HEADER);
  print(promptRows(prompts, context.columns).join("\n"));
  const picked = args === "" ? await askNumber(`Rewind to before which prompt? [1-${prompts.length}, Enter: none] `, prompts.length, context) : Number(args);
  const prompt = picked === undefined ? undefined : prompts[picked - 1];
  if (!prompt) return print(picked === undefined ? "Nothing was rewound." : `There is no prompt ${sanitizeForTerminal(args)}: /rewind lists them.`);

  const cut = runtime.checkpoints.conversationBefore(prompt, agent.conversation.snapshot());
  const choices = cut ? CHOICES : CHOICES.filter((choice) => !choice.conversation);
  if (!cut) print("The conversation was compacted or cleared since that prompt: only the files can be restored.");
  const options = choices.map((choice, i) => `${i + 1}) ${choice.label}`).join("  ");
  const which = await askNumber(`Restore ${options} [1-${choices.length}, Enter: none] `, choices.length, context);
  const choice = which === undefined ? undefined : choices[which - 1];
  if (!choice) return print("Nothing was rewound.");

  if (choice.files) for (const line of filesLines(await runtime.checkpoints.rewindFiles(prompt), runtime.cwd)) print(line);
  if (choice.conversation && cut) {
    agent.conversation.replace(cut);
    runtime.conversationReplaced("rewind");
    runtime.checkpoints.conversationRewound(prompt);
    print(`The conversation is back to before: ${sanitizeForTerminal(firstLine(prompt.text))} (${cut.length} message(s) kept).`);
    // As in Claude Code, the prompt comes back on the line, to edit and send again (when it was kept whole).
    if (!prompt.cut && !prompt.text.includes("\n")) context.startNextLine?.(sanitizeForTerminal(prompt.text));
  }
}

/** Newest first: number, time, files changed (and those not kept), the prompt's first line. */
function promptRows(prompts: readonly PromptCheckpoint[], columns = 100): string[] {
  const rows = prompts.map((prompt, i) => {
    const files = `${prompt.files.length} file(s)${prompt.incomplete.length ? `, incomplete: ${prompt.incomplete.length} not kept` : ""}`;
    return [String(i + 1), clockTime(prompt.time.getTime()), files, sanitizeForTerminal(firstLine(prompt.text))];
  });
  return alignColumns(rows).map((line) => cutToColumns(`  ${line}`, columns));
}

function filesLines(report: FilesRewind, cwd: string): string[] {
  const shown = (paths: readonly string[]) => paths.map((path) => sanitizeForTerminal(displayPath(cwd, path))).join(", ");
  const lines: string[] = [];
  if (report.restored.length) lines.push(`Restored ${report.restored.length} file(s): ${shown(report.restored)}`);
  if (report.removed.length) lines.push(`Removed ${report.removed.length} file(s) the session had created: ${shown(report.removed)}`);
  if (report.changedOutside.length) lines.push(`Changed outside cat-code since (restored all the same): ${shown(report.changedOutside)}`);
  for (const { path, reason } of report.skipped) lines.push(`Not restored: ${shown([path])}: ${sanitizeForTerminal(reason)}`);
  for (const { path, reason } of report.notKept) lines.push(`Not restored (the checkpoint is incomplete): ${shown([path])}: ${sanitizeForTerminal(reason)}`);
  if (lines.length === 0) lines.push("No file to restore: those prompts changed none (bash commands' changes are not tracked).");
  return lines;
}

/** A number from 1 to `count`, asked until given; undefined for Enter, q, Esc, Ctrl-C or the end of input. */
async function askNumber(question: string, count: number, context: RewindContext): Promise<number | undefined> {
  const ask = context.ask;
  if (!ask) return undefined;
  for (;;) {
    const answer = await context.cancellable((signal) => ask(question, signal));
    const text = answer?.trim().toLowerCase() ?? "";
    if (answer === null || text === "" || text === "q") return undefined;
    const number = Number(text);
    if (Number.isInteger(number) && number >= 1 && number <= count) return number;
    context.print(`Type a number from 1 to ${count}, or Enter for none.`);
  }
}
