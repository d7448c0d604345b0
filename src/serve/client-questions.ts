import * as v from "valibot";
import type { ElicitationRequest, ElicitResult } from "../mcp/index.ts";
import type { ClientCapabilities } from "../mcp/stateless-protocol.ts";

/** A client's answer to a question passed on to it; anything else is a cancel. */
export const ClientElicitResult = v.variant("action", [
  v.object({ action: v.literal("accept"), content: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]))) }),
  v.object({ action: v.literal("decline") }),
  v.object({ action: v.literal("cancel") }),
]);

/** A client's answer, checked: what it said when well formed, a cancel otherwise. */
export function clientAnswer(answer: unknown): ElicitResult {
  const parsed = v.safeParse(ClientElicitResult, answer);
  return parsed.success ? (parsed.output as ElicitResult) : { action: "cancel" };
}

/**
 * The params of `elicitation/create` that put an upstream server's question to a client, in either
 * era (a server request, or an entry of an `input_required` result); undefined when the client did
 * not declare it can answer a question of that mode (an empty `elicitation` means form only). The
 * message names the server that asks: the client's user must see who asks.
 */
export function questionParams(request: ElicitationRequest, capabilities: ClientCapabilities): Record<string, unknown> | undefined {
  const declared = capabilities.elicitation;
  const modes = declared && (declared.form || declared.url) ? declared : declared ? { form: {} } : undefined;
  if (!modes?.[request.mode]) return undefined;
  const message = `${request.server}: ${request.message}`;
  return request.mode === "form"
    ? { mode: "form", message, requestedSchema: request.requestedSchema }
    : { mode: "url", message, url: request.url, ...(request.elicitationId ? { elicitationId: request.elicitationId } : {}) };
}
