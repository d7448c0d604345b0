import { redactSecrets } from "../config/entry-secrets.ts";
import type { CallToolResult } from "../protocol.ts";
import { MAX_RESULT_DEPTH } from "../../system/json-depth.ts";

/**
 * A server may quote back what it was sent: the `Authorization` or `X-Api-Key` it received, in an
 * error, a tool's error result, a log message or a progress message. The client masks them where
 * that text leaves it, so every front end (mcp call, mcp list, the REPL, the keeper's log events,
 * the model's note) gets it masked, rather than each front end remembering to. `secrets` are the
 * client's `secretValues` (forms from credentialForms).
 */

/** What stands for a part of an error result nested deeper than any result is let in (parse-result.ts). */
const TOO_DEEP = "(nested too deep, not shown)";

/** Masks the secrets in an error's message, in place: the error keeps its class, code and fields. */
export function maskError(error: unknown, secrets: readonly string[]): void {
  if (error instanceof Error && secrets.length > 0) error.message = redactSecrets(error.message, secrets);
}

/**
 * A tool's error result with every string in it masked, wherever it sits: text blocks, an embedded
 * resource's text, `structuredContent`, `_meta`, object keys too (`mcp call --raw` prints it all).
 * Any other result is as it is (a tool's output is its data).
 */
export function maskErrorResult(result: CallToolResult, secrets: readonly string[]): CallToolResult {
  if (!result.isError || secrets.length === 0) return result;
  return maskedValue(result, secrets, MAX_RESULT_DEPTH) as CallToolResult;
}

/**
 * A copy of a JSON value with its strings masked. Bounded: it walks at most `levels` deep (a
 * result deeper than MAX_RESULT_DEPTH was refused before it got here), and each node once.
 */
function maskedValue(value: unknown, secrets: readonly string[], levels: number): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  if (levels === 0) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => maskedValue(item, secrets, levels - 1));
  // fromEntries: a `__proto__` key stays a plain key, as JSON.parse made it.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactSecrets(key, secrets), maskedValue(item, secrets, levels - 1)]));
}
