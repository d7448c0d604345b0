import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import type { InputRequest } from "../stateless-protocol.ts";
import type { ClientFeatureOptions } from "./client-capabilities.ts";
import { parseElicitationRequest } from "./elicitation.ts";

/**
 * What a server asks of the client, answered in one place whether it came as a server request (the
 * handshake revisions: over stdio, or an HTTP stream) or as an input request embedded in an
 * `input_required` result (2026-07-28, MRTR). The two differ only in how a refusal travels: a
 * server request gets a JSON-RPC error back, while an input request has no error answer, so asking
 * for what we never declared fails the call itself.
 */
export type RequestOrigin = "server-request" | "input-request";

export interface ClientRequestContext {
  /** The server's configured name: the user must see who asks. */
  server: string;
  features: ClientFeatureOptions;
  origin: RequestOrigin;
  /** The call the question belongs to: aborting it (Ctrl-C, a timeout) takes the form away. */
  signal?: AbortSignal;
  /** A server request's call, when the transport could tell (see ElicitationHandler's `call`). */
  call?: AbortSignal;
  /** The server's key of an input request: it goes with the question (see ElicitationRequest.key). */
  key?: string;
}

/**
 * The result for `method`/`params`, or a thrown McpError: InvalidParams for a malformed elicitation
 * (naming the server), MethodNotFound for what a server request may not ask, InvalidResult for an
 * input request we never declared (sampling, or a feature this client was not given).
 */
export async function answerClientRequest(method: string, params: unknown, context: ClientRequestContext): Promise<unknown> {
  const { features, origin } = context;
  switch (method) {
    case "ping":
      // Not an input request: the MRTR schema never lets one through, but say so if it came.
      if (origin === "server-request") return {};
      break;
    case "elicitation/create":
      if (!features.elicitation) break;
      return features.elicitation(
        { ...parseElicitationRequest(context.server, params), ...(context.key === undefined ? {} : { key: context.key }) },
        context.signal,
        context.call,
      );
    case "roots/list":
      if (!features.roots) break;
      return { roots: features.roots.list() };
  }
  if (origin === "input-request") {
    throw new McpError(
      ErrorCode.InvalidResult,
      `the server '${context.server}' asked for ${JSON.stringify(method.slice(0, 80))}, which cat-code did not declare it can answer`,
    );
  }
  throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 200)}`);
}

/**
 * Answers every input request of one MRTR round, in turn (each may put a form in front of the
 * user: two at once would fight over the terminal). The first failure fails the round.
 */
export async function answerInputRequests(
  inputRequests: Record<string, InputRequest>,
  context: Omit<ClientRequestContext, "origin">,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    const answer = await answerClientRequest(request.method, request.params ?? {}, { ...context, origin: "input-request", key });
    // A key is the server's: `__proto__` must stay a key, not become the object's prototype.
    Object.defineProperty(answers, key, { value: answer, enumerable: true, writable: true, configurable: true });
    if (context.signal?.aborted) break;
  }
  return answers;
}
