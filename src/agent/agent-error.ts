import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import { cutText } from "../system/cut-text.ts";

/** The longest API error message kept in an AgentError. */
const MAX_API_MESSAGE = 2_000;

export type AgentErrorCode =
  | "credentials"
  | "authentication"
  | "rate_limited"
  | "overloaded"
  | "network"
  | "timeout"
  | "request"
  | "server";

/**
 * A failure of the model API, as data: the code says what kind, the message is one line that says
 * what happened and what to do. The REPL and the CLI print it; the loop never does.
 */
export class AgentError extends Error {
  override readonly name = "AgentError";
  /** What happened, without the advice: for the short line shown before a retry. */
  readonly reason: string;

  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly status?: number,
    options: { cause?: unknown; reason?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.reason = options.reason ?? message;
  }
}

/** Text for when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set. */
export const MISSING_CREDENTIALS_MESSAGE =
  "ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=<your key> (from https://console.anthropic.com) to talk to the model";

/** Maps whatever the SDK threw to an AgentError; `attempts` says how often it was tried. */
export function toAgentError(error: unknown, attempts: number): AgentError {
  if (error instanceof AgentError) return error;
  const make = (code: AgentErrorCode, reason: string, advice: string, status?: number) =>
    new AgentError(code, `${reason}${attempts > 1 ? ` (tried ${attempts} times)` : ""}${advice ? `; ${advice}` : ""}`, status, {
      cause: error,
      reason,
    });
  if (error instanceof APIConnectionTimeoutError) return make("timeout", "the Anthropic API did not answer in time", "try again");
  if (error instanceof APIConnectionError) {
    const cause = (error.cause as Error | undefined)?.message;
    return make("network", `cannot reach the Anthropic API${cause ? ` (${cause})` : ""}`, "check the network, or ANTHROPIC_BASE_URL if it is set");
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = [status, error.type].filter((part) => part !== undefined && part !== null).join(" ");
    // The message comes from whatever ANTHROPIC_BASE_URL points at: bounded before it is shown.
    const what = `${detail ? ` (${detail})` : ""}${error.apiMessage ? `: ${cutText(error.apiMessage, MAX_API_MESSAGE)}` : ""}`;
    if (status === 401 || error.type === "authentication_error") {
      return make("authentication", `the Anthropic API rejected the credentials${what}`, "check ANTHROPIC_API_KEY", status);
    }
    if (status === 429 || error.type === "rate_limit_error") {
      return make("rate_limited", `rate limited by the Anthropic API${what}`, "wait a moment and try again", status);
    }
    if (status === 529 || error.type === "overloaded_error") {
      return make("overloaded", `the Anthropic API is overloaded${what}`, "try again in a moment", status);
    }
    if (status !== undefined && status >= 500) return make("server", `the Anthropic API failed${what}`, "try again", status);
    return make("request", `the Anthropic API refused the request${what}`, "", status);
  }
  return make("request", `the model request failed: ${(error as Error)?.message ?? String(error)}`, "");
}

/**
 * The API's answer to a model id it does not know (404 not_found_error naming the model, or a 400
 * saying the model is unknown), as one line naming the three places a model comes from.
 */
export function unknownModelError(error: AgentError, model: string): AgentError | undefined {
  const cause = error.cause;
  const type = cause instanceof APIError ? cause.type : undefined;
  const text = cause instanceof APIError ? (cause.apiMessage ?? "") : "";
  const notFound = error.status === 404 && (type === "not_found_error" || type === null || type === undefined) && /model/i.test(text);
  const unknown = error.status === 400 && /model/i.test(text) && /(unknown|invalid|not (found|supported|available)|does not exist)/i.test(text);
  if (!notFound && !unknown) return undefined;
  // The id came from a flag, the environment or a file: shown plainly, control characters and all made harmless.
  const shown = model.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  return new AgentError("request", `the model '${shown}' was not found: change --model, CAT_CODE_MODEL or "model" in settings.json`, error.status, { cause });
}
