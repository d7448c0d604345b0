import * as v from "valibot";
import { checkSamplingResult, elicitationModes, type ElicitationRequest, type ElicitResult, type RootsRequest, type SamplingRequest } from "../mcp/index.ts";
import { ListRootsResult, type ClientCapabilities } from "../mcp/stateless-protocol.ts";

/**
 * What an upstream server asks of the client of a call, passed on in the client's era: a question
 * (elicitation), a sampling request (its model answers), or its roots (a 2026-07-28 client only:
 * a handshake client's roots were adopted at its handshake, see client-roots.ts).
 */
export type RelayedQuestion =
  | { method: "elicitation/create"; request: ElicitationRequest }
  | { method: "sampling/createMessage"; request: SamplingRequest }
  | { method: "roots/list"; request: RootsRequest };

/**
 * Puts a question to a client, in its era: resolves to the client's raw answer (checked by the
 * QuestionRouter), rejects with NotAsked when it was never put to the client, with the client's
 * error (or a cancel) otherwise. `guessed`: nothing named the call it is put to (a handshake
 * upstream over stdio), so it may be another call's: it is asked, but answers given before it was
 * asked do not answer it and the call is not failed for it (see InputRounds).
 */
export type ClientAsk = (question: RelayedQuestion, signal?: AbortSignal, guessed?: boolean) => Promise<unknown>;

/**
 * Requests relayed to one client (an HTTP session, a stdio connection) or one call of a 2026-07-28
 * client open at once (questions and sampling requests alike); past it one more is not asked, so a
 * server cannot pile up requests (a sampling request may be 8 MB) while the client is silent.
 */
export const MAX_OPEN_QUESTIONS = 16;

/** Throws NotAsked when `open` requests of `whose` are open already (MAX_OPEN_QUESTIONS). */
export function checkRoomForQuestion(open: number, whose: string): void {
  if (open >= MAX_OPEN_QUESTIONS) throw new NotAsked(`${whose} has ${MAX_OPEN_QUESTIONS} requests open already (the most mcp serve relays at once)`);
}

/** The client was not asked: it did not declare what the question needs, or too many wait already. */
export class NotAsked extends Error {
  /** The capability the client did not declare, when a request has no graceful answer without it (sampling). */
  constructor(
    message: string,
    readonly requiredCapability?: string,
  ) {
    super(message);
  }
}

/** The client cannot be asked at all (a request with no way back to its client). */
export const askNobody: ClientAsk = async (question) => {
  throw new NotAsked(`the client of mcp serve cannot be asked ${question.method} here`);
};

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

/** Whether `answer` is well formed as the answer to `method` (what a client may send before it was asked). */
export function wellFormedAnswer(method: RelayedQuestion["method"], answer: unknown): boolean {
  switch (method) {
    case "elicitation/create":
      return v.is(ClientElicitResult, answer);
    case "sampling/createMessage":
      try {
        checkSamplingResult(answer);
        return true;
      } catch {
        return false;
      }
    case "roots/list":
      return v.is(ListRootsResult, answer);
  }
}

/**
 * The params that put `question` to a client of that era with these capabilities; NotAsked, thrown,
 * when it did not declare it can answer it (sampling, roots, a question of that mode) or when it is
 * a handshake client's roots (adopted at its handshake already).
 */
export function relayedParams(question: RelayedQuestion, capabilities: ClientCapabilities, era: "handshake" | "modern"): Record<string, unknown> {
  switch (question.method) {
    case "elicitation/create": {
      const params = questionParams(question.request, capabilities);
      if (!params) throw new NotAsked(`the client of mcp serve did not declare elicitation (${question.request.mode} mode)`);
      return params;
    }
    case "sampling/createMessage":
      if (!capabilities.sampling) throw new NotAsked("the client of mcp serve did not declare sampling", "sampling");
      return question.request.params;
    case "roots/list":
      if (!capabilities.roots) throw new NotAsked("the client of mcp serve did not declare roots");
      if (era === "handshake") throw new NotAsked("a handshake client's roots are listed at its handshake");
      return {};
  }
}

/**
 * The params of `elicitation/create` that put an upstream server's question to a client, in either
 * era (a server request, or an entry of an `input_required` result); undefined when the client did
 * not declare it can answer a question of that mode (an empty `elicitation` means form only). The
 * message names the server that asks: the client's user must see who asks.
 */
export function questionParams(request: ElicitationRequest, capabilities: ClientCapabilities): Record<string, unknown> | undefined {
  const declared = capabilities.elicitation;
  if (!declared || !elicitationModes(declared)[request.mode]) return undefined;
  const message = `${request.server}: ${request.message}`;
  return request.mode === "form"
    ? { mode: "form", message, requestedSchema: request.requestedSchema }
    : { mode: "url", message, url: request.url, ...(request.elicitationId ? { elicitationId: request.elicitationId } : {}) };
}
