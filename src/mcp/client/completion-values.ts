import { CompleteResult, type Completion } from "../protocol.ts";
import { parseResult } from "./parse-result.ts";

/** The spec's bound on one `completion/complete` answer: a server that sends more is cut here. */
export const MAX_COMPLETION_VALUES = 100;

/** A `completion/complete` result, checked, its values cut to 100 (then `hasMore`, as the server should have said). */
export function boundedCompletion(raw: unknown): Completion {
  const { completion } = parseResult(CompleteResult, raw, "completion/complete");
  if (completion.values.length <= MAX_COMPLETION_VALUES) return completion;
  return { ...completion, values: completion.values.slice(0, MAX_COMPLETION_VALUES), hasMore: true };
}
