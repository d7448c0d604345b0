import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";

/**
 * How the loop retries a failed model request. The SDK's own retries are switched off so that this
 * is the one place that decides: the user sees a line per retry, a retry also covers an error that
 * arrives inside an open stream (the SDK does not retry those), and tests can make it fast.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first delay; each further one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 1_000, maxDelayMs: 16_000 };

/**
 * A refused or dropped connection is rarely fixed by waiting long (a wrong ANTHROPIC_BASE_URL, no
 * network): a couple of quick retries, then the user hears about it.
 */
export const MAX_CONNECTION_RETRIES = 2;

/** A server asking for a longer wait than this is treated as "not now": the user can try later. */
const MAX_RETRY_AFTER_MS = 60_000;

const RETRYABLE_STREAM_ERRORS = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/** How many retries an error of this kind gets under the policy. */
export function retriesFor(error: unknown, policy: RetryPolicy): number {
  if (!isRetryable(error)) return 0;
  return error instanceof APIConnectionError ? Math.min(policy.maxRetries, MAX_CONNECTION_RETRIES) : policy.maxRetries;
}

/** Worth another try: rate limits, overload, server errors, a dropped connection. Never a user abort. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError)) return false;
  const hint = error.headers?.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  const status = error.status;
  // No status: an `error` event inside a 200 stream, such as overloaded_error mid-answer.
  if (status === undefined) return error.type !== null && RETRYABLE_STREAM_ERRORS.has(error.type);
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait before retry number `retry` (1-based): the server's retry-after if it gave one, else backoff with jitter. */
export function retryDelayMs(error: unknown, retry: number, policy: RetryPolicy): number {
  const asked = retryAfterMs(error);
  if (asked !== undefined && asked > 0 && asked <= MAX_RETRY_AFTER_MS) return asked;
  const backoff = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  // Up to 25% less, so many clients overloaded at once do not come back in step.
  return Math.round(backoff * (1 - Math.random() * 0.25));
}

function retryAfterMs(error: unknown): number | undefined {
  const headers = error instanceof APIError ? error.headers : undefined;
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms)) return ms;
  const seconds = Number.parseFloat(headers?.get("retry-after") ?? "");
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}
