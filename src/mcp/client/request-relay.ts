import type { SamplingRequest } from "./sampling.ts";

/** A root as a client of the gateway listed it: `name` is optional in the spec. */
export interface RelayedRoot {
  uri: string;
  name?: string;
}

/** A server's `roots/list` that a gateway may pass on to the client whose call it came in. */
export interface RootsRequest {
  /** The configured name of the server that asks. */
  server: string;
  /** The server's key of an input request (2026-07-28). */
  key?: string;
}

/**
 * What a gateway (`mcp serve`) does with the two client requests a server may make beside a
 * question: sampling goes to the client that made the call (its model answers), and `roots/list`
 * during a call may be answered with that client's folders. cat-code's agent has no relay: it
 * declares no sampling and answers roots with its own.
 */
export interface RequestRelay {
  /**
   * The client's CreateMessageResult, checked; throws McpError naming why none can be had (a client
   * without sampling). `call`: the caller's call it came during, when the transport could tell (see ElicitationHandler).
   */
  sampling(request: SamplingRequest, signal?: AbortSignal, call?: AbortSignal): Promise<Record<string, unknown>>;
  /** The client's roots, or undefined: answer with cat-code's own (no call, a client without roots). */
  roots(request: RootsRequest, signal?: AbortSignal, call?: AbortSignal): Promise<RelayedRoot[] | undefined>;
}
