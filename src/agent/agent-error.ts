import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";

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
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Text for when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set. */
export const MISSING_CREDENTIALS_MESSAGE =
  "ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=<your key> (from https://console.anthropic.com) to talk to the model";

/** Maps whatever the SDK threw to an AgentError; `attempts` says how often it was tried. */
export function toAgentError(error: unknown, attempts: number): AgentError {
  if (error instanceof AgentError) return error;
  const tried = attempts > 1 ? ` (tried ${attempts} times)` : "";
  if (error instanceof APIConnectionTimeoutError) {
    return new AgentError("timeout", `the Anthropic API did not answer in time${tried}; try again`, undefined, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const cause = (error.cause as Error | undefined)?.message;
    return new AgentError(
      "network",
      `cannot reach the Anthropic API${cause ? ` (${cause})` : ""}${tried}; check the network, or ANTHROPIC_BASE_URL if it is set`,
      undefined,
      { cause: error },
    );
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = [status, error.type].filter((part) => part !== undefined && part !== null).join(" ");
    const said = error.apiMessage ? `: ${error.apiMessage}` : "";
    const what = `${detail ? ` (${detail})` : ""}${said}`;
    if (status === 401 || error.type === "authentication_error") {
      return new AgentError("authentication", `the Anthropic API rejected the credentials${what}; check ANTHROPIC_API_KEY`, status, { cause: error });
    }
    if (status === 429 || error.type === "rate_limit_error") {
      return new AgentError("rate_limited", `rate limited by the Anthropic API${what}${tried}; wait a moment and try again`, status, { cause: error });
    }
    if (status === 529 || error.type === "overloaded_error") {
      return new AgentError("overloaded", `the Anthropic API is overloaded${what}${tried}; try again in a moment`, status, { cause: error });
    }
    if (status !== undefined && status >= 500) {
      return new AgentError("server", `the Anthropic API failed${what}${tried}; try again`, status, { cause: error });
    }
    return new AgentError("request", `the Anthropic API refused the request${what}`, status, { cause: error });
  }
  return new AgentError("request", `the model request failed: ${(error as Error)?.message ?? String(error)}`, undefined, { cause: error });
}
