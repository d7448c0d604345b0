import { splitShellWords } from "../system/shell-words.ts";
import { createCompleter, type Completions } from "./completion.ts";
import type { LineCompleter } from "./tab-completion.ts";
import { assignWords } from "./prompt-arguments.ts";
import type { PromptCommand } from "./prompt-commands.ts";
import type { RemoteCompletions } from "./remote-completion.ts";

/**
 * The word being typed after a prompt command: `name=value` completes that argument's value, a bare
 * word the next positional one's. Values are offered as they must be typed, blanks and quotes
 * escaped with a backslash (`Dr.\ Ada`), so that each extends what was typed. A word with a quote in
 * it is left alone: what Tab would insert could not be told from the quoting.
 */
export async function argumentCompletion(command: PromptCommand, args: string, remote: RemoteCompletions): Promise<Completions | undefined> {
  const word = /((?:\\.|\S)*)$/s.exec(args)?.[1] ?? "";
  if (/["']/.test(word)) return undefined;
  let earlier: string[];
  try {
    earlier = splitShellWords(args.slice(0, args.length - word.length));
  } catch {
    return undefined;
  }
  const declared = command.prompt.arguments ?? [];
  const { values: given } = assignWords(earlier, declared);
  const named = /^([^=]+)=(.*)$/s.exec(word);
  const target = named ? declared.find((arg) => arg.name === named[1]) : declared.find((arg) => !(arg.name in given));
  if (!target) return undefined;
  const prefix = named ? `${target.name}=` : "";
  const typed = splitShellWords(named ? (named[2] as string) : word)[0] ?? "";
  const values = await argumentValues(command, target.name, typed, given, remote);
  return [values.map((value) => `${prefix}${escapeWord(value)}`), word];
}

/** A value as one shell-like word: blanks, quotes and backslashes escaped. */
function escapeWord(value: string): string {
  return value.replace(/[\s"'\\]/g, "\\$&");
}

/** Tab at the question for a missing argument: the whole answer is the value, no quoting needed. */
export function argumentAnswerCompleter(command: PromptCommand, argument: string, given: Record<string, string>, remote: RemoteCompletions): LineCompleter {
  return createCompleter([async (line) => [await argumentValues(command, argument, line, given, remote), line]]);
}

function argumentValues(command: PromptCommand, argument: string, value: string, given: Record<string, string>, remote: RemoteCompletions): Promise<string[]> {
  const context = Object.fromEntries(Object.entries(given).filter(([name]) => name !== argument));
  return remote.values(command.server, command.client, { type: "ref/prompt", name: command.prompt.name }, { name: argument, value }, context);
}
