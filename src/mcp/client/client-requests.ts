import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import type { InputRequest } from "../stateless-protocol.ts";
import type { ClientFeatureOptions } from "./client-capabilities.ts";
import { parseElicitationRequest } from "./elicitation.ts";
import { parseSamplingRequest } from "./sampling.ts";

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
 * or sampling request (naming the server), MethodNotFound for what a server request may not ask,
 * InvalidResult for an input request we never declared (sampling without a relay, or a feature this
 * client was not given).
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
    case "sampling/createMessage":
      if (!features.relay) break;
      return features.relay.sampling(parseSamplingRequest(context.server, params, context.key), context.signal, context.call);
    case "roots/list": {
      if (!features.roots) break;
      const relayed = await features.relay?.roots({ server: context.server, ...(context.key === undefined ? {} : { key: context.key }) }, context.signal, context.call);
      return { roots: relayed ?? features.roots.list() };
    }
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
 * Answers every input request of one MRTR round: in turn by default (each may put a form in front
 * of the user: two at once would fight over the terminal), side by side when the features say so
 * (a gateway passes them all to its client in one round). The first failure fails the round.
 */
export async function answerInputRequests(
  inputRequests: Record<string, InputRequest>,
  context: Omit<ClientRequestContext, "origin">,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  // A key is the server's: `__proto__` must stay a key, not become the object's prototype.
  const keep = (key: string, answer: unknown) => Object.defineProperty(answers, key, { value: answer, enumerable: true, writable: true, configurable: true });
  const ask = (key: string, request: InputRequest) => answerClientRequest(request.method, request.params ?? {}, { ...context, origin: "input-request", key });
  const entries = Object.entries(inputRequests);
  if (context.features.inputRequestsTogether) {
    const all = await Promise.all(entries.map(([key, request]) => ask(key, request)));
    entries.forEach(([key], index) => keep(key, all[index]));
    return answers;
  }
  for (const [key, request] of entries) {
    keep(key, await ask(key, request));
    if (context.signal?.aborted) break;
  }
  return answers;
}
