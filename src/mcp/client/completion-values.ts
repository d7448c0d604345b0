import { CompleteResult, type Completion } from "../protocol.ts";
import { parseResult } from "./parse-result.ts";

/** The spec's bound on one `completion/complete` answer: a server that sends more is cut here. */
export const MAX_COMPLETION_VALUES = 100;
/** A value longer than this is not something to type at a prompt: it is left out. */
export const MAX_COMPLETION_VALUE_CHARS = 1000;

/**
 * A `completion/complete` result, checked; values too long to be typed are left out, and the rest
 * cut to 100 (then `hasMore`, as the server should have said).
 */
export function boundedCompletion(raw: unknown): Completion {
  const { completion } = parseResult(CompleteResult, raw, "completion/complete");
  const values = completion.values.filter((value) => value.length <= MAX_COMPLETION_VALUE_CHARS);
  if (values.length === completion.values.length && values.length <= MAX_COMPLETION_VALUES) return completion;
  const cut = values.length > MAX_COMPLETION_VALUES;
  return { ...completion, values: values.slice(0, MAX_COMPLETION_VALUES), ...(cut && { hasMore: true }) };
}
