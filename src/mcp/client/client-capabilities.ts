import type { ClientCapabilities } from "../stateless-protocol.ts";
import { ELICITATION_CAPABILITY, type ElicitationHandler } from "./elicitation.ts";
import type { RequestRelay } from "./request-relay.ts";
import type { RootsProvider } from "./roots.ts";

/** What a client can do for its server beyond answering: the options that decide what it declares. */
export interface ClientFeatureOptions {
  /** Asks the user what a server asks (`elicitation/create`, or an MRTR input request). */
  elicitation?: ElicitationHandler;
  /** The folders the server may work in (`roots/list`). */
  roots?: RootsProvider;
  /** A gateway's: passes sampling (declared only then) and in-call `roots/list` on to its own client. */
  relay?: RequestRelay;
  /**
   * Answers the input requests of one MRTR round side by side (a gateway puts them to its client in
   * one round), not one after the other (a terminal shows one form at a time: the default).
   */
  inputRequestsTogether?: boolean;
}

/**
 * The capabilities cat-code declares, in `initialize` (handshake revisions) and in every request's
 * `_meta` (2026-07-28): only what it can answer, so a server never asks what would be refused.
 */
export function declaredCapabilities(features: ClientFeatureOptions): ClientCapabilities {
  return {
    ...(features.roots ? { roots: { listChanged: true } } : {}),
    ...(features.relay ? { sampling: {} } : {}),
    ...(features.elicitation ? { elicitation: ELICITATION_CAPABILITY } : {}),
  };
}

/**
 * What one 2026-07-28 request declares when it is made for someone else (a gateway's client): what
 * that caller declared, but never more than this connection declares (`own`), since the upstream
 * may ask anything declared and only what cat-code can answer gets an answer. Roots stay as `own`
 * has them: cat-code answers `roots/list` itself (with its own folders) when the caller has none.
 * An `elicitation` without modes means form only, on either side.
 */
export function forwardedCapabilities(own: ClientCapabilities, caller: ClientCapabilities): ClientCapabilities {
  const elicitation = commonElicitationModes(own.elicitation, caller.elicitation);
  return {
    ...(own.roots ? { roots: own.roots } : {}),
    ...(own.sampling && caller.sampling ? { sampling: own.sampling } : {}),
    ...(elicitation ? { elicitation } : {}),
  };
}

type ElicitationCapability = NonNullable<ClientCapabilities["elicitation"]>;

/** The elicitation modes both sides declare, or undefined when they share none. */
function commonElicitationModes(own: ElicitationCapability | undefined, caller: ElicitationCapability | undefined): ElicitationCapability | undefined {
  if (!own || !caller) return undefined;
  const ownModes = elicitationModes(own);
  const callerModes = elicitationModes(caller);
  const modes = {
    ...(ownModes.form && callerModes.form ? { form: ownModes.form } : {}),
    ...(ownModes.url && callerModes.url ? { url: ownModes.url } : {}),
  };
  return modes.form || modes.url ? modes : undefined;
}

/** An `elicitation` capability with its modes spelled out (none named: form only, as the spec reads an empty one). */
export function elicitationModes(declared: ElicitationCapability): ElicitationCapability {
  return declared.form || declared.url ? declared : { form: {} };
}
