/**
 * Sampling (`sampling/createMessage`): a server asks the client's model for a message. cat-code's
 * own agent never answers one (DESIGN.md: not now); only a gateway (`mcp serve`) relays it to a
 * client that declared `sampling`, whose model answers. This layer checks and bounds what passes
 * through, in both directions; the request is otherwise passed on whole (it is the client's to read).
 */
import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { exceedsDepth } from "../../system/json-depth.ts";
import { describeIssue } from "../../system/schema-issue.ts";
import { WholeObject } from "../../system/whole-object.ts";

/** Messages one sampling request may carry: a long conversation, far from a flood. */
export const MAX_SAMPLING_MESSAGES = 1_000;
/** How large a sampling request or its answer may be, as JSON: images and audio fit, megabytes of padding do not. */
export const MAX_SAMPLING_CHARS = 8 * 2 ** 20;
/** How deep either may nest: content blocks and tool schemas are shallow. */
export const MAX_SAMPLING_DEPTH = 32;

/** The longest reason (where, and what was wrong) an error about a malformed request or answer gives. */
const MAX_REASON_CHARS = 320;

/** A server's sampling request, checked: its params are passed on as the server wrote them. */
export interface SamplingRequest {
  /** The configured name of the server that asks. */
  server: string;
  params: Record<string, unknown>;
  /** The server's key of an input request (2026-07-28): a gateway passes it on under the same key. */
  key?: string;
}

const SamplingParams = v.looseObject({
  messages: v.pipe(
    v.array(v.looseObject({ role: v.picklist(["user", "assistant"]), content: v.union([WholeObject, v.array(WholeObject)]) })),
    v.maxLength(MAX_SAMPLING_MESSAGES, `more than ${MAX_SAMPLING_MESSAGES} messages`),
  ),
  maxTokens: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** The spec's CreateMessageResult: one message of the model's, named and with why it stopped. */
const CreateMessageResult = v.looseObject({
  role: v.picklist(["user", "assistant"]),
  content: v.union([WholeObject, v.array(WholeObject)]),
  model: v.string(),
  stopReason: v.optional(v.string()),
});

/**
 * Checks the params of `sampling/createMessage` from `server`: messages with a role and content,
 * a positive `maxTokens`, within MAX_SAMPLING_MESSAGES, MAX_SAMPLING_CHARS and MAX_SAMPLING_DEPTH.
 * Anything else is McpError InvalidParams naming the server and what was wrong.
 */
export function parseSamplingRequest(server: string, params: unknown, key?: string): SamplingRequest {
  const invalid = (reason: string) => new McpError(ErrorCode.InvalidParams, `invalid sampling request from '${server}': ${reason}`);
  const checked = checkBounded(SamplingParams, params);
  if (!checked.ok) throw invalid(checked.reason);
  return { server, params: params as Record<string, unknown>, ...(key === undefined ? {} : { key }) };
}

/**
 * The answer a client gave to a relayed sampling request, checked before it goes to the server
 * that asked: a CreateMessageResult within the same bounds, else McpError InvalidResult.
 */
export function checkSamplingResult(answer: unknown): Record<string, unknown> {
  const checked = checkBounded(CreateMessageResult, answer);
  if (!checked.ok) throw new McpError(ErrorCode.InvalidResult, `the client answered sampling/createMessage with a malformed result: ${checked.reason}`);
  return answer as Record<string, unknown>;
}

function checkBounded(schema: v.GenericSchema, value: unknown): { ok: true } | { ok: false; reason: string } {
  if (exceedsDepth(value, MAX_SAMPLING_DEPTH)) return { ok: false, reason: `it nests deeper than ${MAX_SAMPLING_DEPTH} levels` };
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    // Cut: a path is the server's keys and a message may quote its values.
    return { ok: false, reason: describeIssue(parsed.issues[0]).slice(0, MAX_REASON_CHARS) };
  }
  // Measured last: the shape is known sound by now, so stringify meets no cycle and no deep chain.
  const size = JSON.stringify(value).length;
  if (size > MAX_SAMPLING_CHARS) return { ok: false, reason: `it is ${size} characters long (at most ${MAX_SAMPLING_CHARS})` };
  return { ok: true };
}
