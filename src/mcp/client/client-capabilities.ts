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
