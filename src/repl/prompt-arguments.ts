import { splitShellWords } from "../system/shell-words.ts";
import type { PromptArgument } from "../mcp/protocol.ts";
import { cutText } from "../system/cut-text.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

export type ParsedArguments = { ok: true; values: Record<string, string> } | { ok: false; error: string };

/** `name=` at the start of a word: the argument it names, when the prompt has one of that name. */
const NAMED = /^([^=\s]+)=(.*)$/s;

/**
 * A prompt command's arguments as typed: words split as a shell would (quotes, backslashes), each
 * `name=value` for a named argument, the others positional, filling the arguments not named in the
 * prompt's order. More words than arguments is an error, and so is a word naming an argument the
 * prompt does not have (a typo would otherwise be sent as the next argument's value).
 */
export function parsePromptArguments(text: string, declared: PromptArgument[]): ParsedArguments {
  let words: string[];
  try {
    words = splitShellWords(text);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const { values, extra, unknown } = assignWords(words, declared);
  if (unknown !== undefined) return { ok: false, error: `no argument '${clip(unknown)}'; it takes ${argumentList(declared)}` };
  if (extra.length > 0) return { ok: false, error: `too many arguments (${words.length}); it takes ${argumentList(declared)}` };
  return { ok: true, values };
}

/**
 * Words to arguments: `name=value` where the prompt has that name, the other words in order to the
 * arguments not named. `extra` holds the words left over; `unknown` the first `name=` that names
 * no argument (a word like `a=b` whose left side is not a plain name is a value).
 */
export function assignWords(words: string[], declared: PromptArgument[]): { values: Record<string, string>; extra: string[]; unknown?: string } {
  const names = new Set(declared.map((arg) => arg.name));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  let unknown: string | undefined;
  for (const word of words) {
    const [, name = "", value = ""] = NAMED.exec(word) ?? [];
    if (names.has(name)) values[name] = value;
    else if (name && /^[A-Za-z_][\w.-]*$/.test(name)) unknown ??= name;
    else positional.push(word);
  }
  const open = declared.filter((arg) => !(arg.name in values));
  positional.slice(0, open.length).forEach((value, i) => (values[(open[i] as PromptArgument).name] = value));
  return { values, extra: positional.slice(open.length), unknown };
}

/** The required arguments not given, in the prompt's order. */
export function missingRequired(declared: PromptArgument[], values: Record<string, string>): PromptArgument[] {
  return declared.filter((arg) => arg.required && !(arg.name in values));
}

/** `city* state`, or "no arguments": required ones marked with `*`. */
export function argumentList(declared: PromptArgument[]): string {
  if (declared.length === 0) return "no arguments";
  return declared.map((arg) => `${clip(arg.name)}${arg.required ? "*" : ""}`).join(" ");
}

/** Asks one question for `argument`, knowing the values given so far (for Tab); null: no answer. */
export type AskAnswer = (question: string, argument: PromptArgument, given: Record<string, string>) => Promise<string | null>;

/**
 * Asks for each missing required argument, one question each, again after an empty answer. Null
 * when the user gave up: Esc or Ctrl-C (the question's signal), or Ctrl-D (the end of input).
 */
export async function askMissing(missing: PromptArgument[], given: Record<string, string>, ask: AskAnswer): Promise<Record<string, string> | null> {
  const answers: Record<string, string> = {};
  for (const arg of missing) {
    const about = arg.description ?? arg.title;
    const question = `${clip(arg.name)}*${about ? ` (${clip(about)})` : ""}: `;
    for (;;) {
      const answer = await ask(question, arg, { ...given, ...answers });
      if (answer === null) return null;
      if (answer.trim() !== "") {
        answers[arg.name] = answer;
        break;
      }
    }
  }
  return answers;
}

/** Server text in one line of a question or an error: sanitized and cut. */
function clip(text: string): string {
  return cutText(sanitizeForTerminal(text), 80);
}
