/** Reads one line; null when input ended or `signal` aborted. */
export type ReadLine = (question: string, signal: AbortSignal) => Promise<string | null>;

export const INSTEAD_QUESTION = "What should cat-code do instead? ";

/**
 * After the user said no to a tool call, the turn has stopped (a "declined" outcome): asks what to
 * do instead, as Claude Code does. The answer is the next prompt, sent right after the declined
 * call's result, so the model reads both together. An empty answer, Esc, Ctrl-C or the end of input
 * sends nothing: back to the prompt (whatever is typed there later still follows the decline).
 * `cancellable` gives the read a signal that Esc and Ctrl-C abort.
 */
export async function askInstead(
  read: ReadLine,
  cancellable: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>,
  note: (line: string) => void,
): Promise<string | undefined> {
  note("(Enter, Esc or Ctrl-C: back to the prompt without sending anything)");
  const answer = await cancellable((signal) => read(INSTEAD_QUESTION, signal));
  const text = answer?.trim();
  return text ? text : undefined;
}
