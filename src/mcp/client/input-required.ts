import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { InputRequiredResult, type InputRequest, ResultType } from "../stateless-protocol.ts";
import { isPlainObject } from "../../system/plain-object.ts";

/**
 * Multi-round-trip requests (MRTR, 2026-07-28): `tools/call`, `prompts/get` and `resources/read` may
 * answer "input required" instead of a result. The client answers the embedded requests (a form
 * for the user, its roots), then sends the original request again, as a new request, with the
 * answers and the server's `requestState` echoed exactly, until the result is complete.
 */

/** Rounds of "input required" one request may take before we give up on the server. */
export const MAX_INPUT_ROUNDS = 10;
/** Embedded requests one round may carry: each may put a form in front of the user. */
export const MAX_INPUT_REQUESTS = 16;

export interface InputRequiredOptions {
  /** The method, for messages. */
  method: string;
  /** Sends the request (a new id each time) with these params; resolves to its raw result. */
  send: (params: Record<string, unknown>) => Promise<unknown>;
  /** Answers every embedded request; the keys of the answer are the keys asked. */
  answer: (inputRequests: Record<string, InputRequest>) => Promise<Record<string, unknown>>;
  maxRounds?: number;
  /** The caller gave up (Ctrl-C): no further round starts. */
  signal?: AbortSignal;
}

/**
 * Sends `params`, answering "input required" results until a complete one, which it returns as
 * the server sent it. `params` is never changed: each retry is a fresh copy with `inputResponses`
 * (only when the server asked something) and `requestState` (only when the server sent one); what
 * the original carried under those names is not sent again. A malformed interim result (an unknown
 * embedded method, neither requests nor state, too many requests) or more than `maxRounds` rounds
 * is McpError InvalidResult: the server's fault, said in words.
 */
export async function sendWithInputRounds(params: Record<string, unknown>, options: InputRequiredOptions): Promise<unknown> {
  const maxRounds = options.maxRounds ?? MAX_INPUT_ROUNDS;
  const { inputResponses: _responses, requestState: _state, ...original } = params;
  let result = await options.send(params);
  for (let round = 1; ; round++) {
    const interim = inputRequired(result, options.method);
    if (interim === undefined) return result;
    if (round > maxRounds) {
      throw new McpError(ErrorCode.InvalidResult, `${options.method}: the server asked for input ${maxRounds} times without finishing; gave up`);
    }
    if (options.signal?.aborted) throw McpError.cancelled(options.method);
    const retry: Record<string, unknown> = { ...original };
    if (interim.inputRequests !== undefined) retry.inputResponses = await options.answer(interim.inputRequests);
    if (interim.requestState !== undefined) retry.requestState = interim.requestState;
    if (options.signal?.aborted) throw McpError.cancelled(options.method);
    result = await options.send(retry);
  }
}

/** The interim result's requests and state; undefined when `result` is complete. */
function inputRequired(result: unknown, method: string): { inputRequests?: Record<string, InputRequest>; requestState?: string } | undefined {
  if (!isPlainObject(result) || result.resultType === undefined || result.resultType === ResultType.complete) return undefined;
  if (result.resultType !== ResultType.inputRequired) {
    throw invalid(method, `unknown resultType ${JSON.stringify(result.resultType)?.slice(0, 80)}`);
  }
  const parsed = v.safeParse(InputRequiredResult, result);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue);
    throw invalid(method, `${where ? `${where.slice(0, 120)}: ` : ""}${issue.message}`);
  }
  const { inputRequests, requestState } = parsed.output;
  const asked = inputRequests === undefined ? 0 : Object.keys(inputRequests).length;
  if (asked > MAX_INPUT_REQUESTS) throw invalid(method, `${asked} input requests in one round, more than the ${MAX_INPUT_REQUESTS} allowed`);
  if (asked === 0 && requestState === undefined) throw invalid(method, "it carries neither inputRequests nor requestState");
  return { ...(asked > 0 && { inputRequests }), ...(requestState !== undefined && { requestState }) };
}

function invalid(method: string, why: string): McpError {
  return new McpError(ErrorCode.InvalidResult, `${method}: the server asked for input in a malformed way: ${why}`);
}
