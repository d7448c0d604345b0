import { splitShellWords } from "../cli/shell-words.ts";
import { createCompleter, type Completions } from "./completion.ts";
import type { LineCompleter } from "./line-reader.ts";
import { assignWords } from "./prompt-arguments.ts";
import type { PromptCommand } from "./prompt-commands.ts";
import type { RemoteCompletions } from "./remote-completion.ts";

/**
 * The word being typed after a prompt command: `name=value` completes that argument's value, a bare
 * word the next positional one's. A word with quotes in it is left alone: what readline would insert
 * could not be told from the quoting.
 */
export async function argumentCompletion(command: PromptCommand, args: string, remote: RemoteCompletions): Promise<Completions | undefined> {
  const word = /(\S*)$/.exec(args)?.[1] ?? "";
  if (/["'\\]/.test(word)) return undefined;
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
  const values = await argumentValues(command, target.name, named ? (named[2] as string) : word, given, remote);
  // A value with a blank or a quote would need quoting, and would not extend the word as typed.
  return [values.filter((candidate) => !/[\s"'\\]/.test(candidate)).map((candidate) => `${prefix}${candidate}`), word];
}

/** Tab at the question for a missing argument: the whole answer is the value, no quoting needed. */
export function argumentAnswerCompleter(command: PromptCommand, argument: string, given: Record<string, string>, remote: RemoteCompletions): LineCompleter {
  return createCompleter([async (line) => [await argumentValues(command, argument, line, given, remote), line]]);
}

function argumentValues(command: PromptCommand, argument: string, value: string, given: Record<string, string>, remote: RemoteCompletions): Promise<string[]> {
  const context = Object.fromEntries(Object.entries(given).filter(([name]) => name !== argument));
  return remote.values(command.server, command.client, { type: "ref/prompt", name: command.prompt.name }, { name: argument, value }, context);
}
