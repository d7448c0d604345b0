import { isPlainObject } from "../../../system/plain-object.ts";
import { McpError } from "../../mcp-error.ts";
import { ErrorCode } from "../../protocol.ts";
import type { ClientCapabilities, ProgressToken } from "../../stateless-protocol.ts";
import type { RequestOptions } from "../client-options.ts";
import type { InputRequest } from "../../stateless-protocol.ts";
import type { Era } from "../version-negotiation.ts";

/**
 * What one protocol generation does to every request, so the client's request path is the same
 * for both: the params a request goes with, what must happen before it is sent, which failures
 * send it again, and how a request given up is cancelled. One object per generation:
 * `LegacyEra` (the handshake revisions, 2024-11-05 to 2025-11-25) and `ModernEra` (2026-07-28).
 */
export interface EraStrategy {
  readonly era: Era;
  /** Sets what the layers below need for this era: the transport's version header, the connection's cancellation. */
  enter(): void;
  /**
   * The params a request goes with in this era; params that are not an object are refused.
   * `callerCapabilities`: see CallOptions.clientCapabilities (only the modern era can use them).
   */
  params(params: unknown, progressToken?: ProgressToken, callerCapabilities?: ClientCapabilities): unknown;
  /**
   * Sends a request a 2026-07-28 server may answer "input required" (tools/call, resources/read,
   * prompts/get): the handshake revisions send it once; the modern one answers each round's
   * requests and sends it again until complete (input-required.ts).
   */
  sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions, client: AnsweringClient): Promise<unknown>;
  /** The retry bookkeeping of one request (`method`), from its first send to its last. */
  attempt(method: string): EraAttempt;
}

/** What `sendAnswering` needs of the client: one object, not closures per request. */
export interface AnsweringClient {
  request(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
  /** Answers a round's embedded requests (a form for the user, our roots). */
  answer(inputRequests: Record<string, InputRequest>, signal: AbortSignal | undefined): Promise<Record<string, unknown>>;
}

/** One request's sends, as its era sees them. */
export interface EraAttempt {
  /** Before each send: what must finish first (legacy: a session renewal), or undefined when nothing must; the wait ends with `timeout.signal`. */
  ready(timeout: { readonly signal: AbortSignal }): Promise<void> | undefined;
  /** A send failed: true to send again; false to give up with `error`; throws a clearer error to give up with. */
  retry(error: McpError): boolean;
}

/** A request's params, checked: an object or none (JSON-RPC allows an array; MCP never sends one). */
export function objectParams(params: unknown): Record<string, unknown> | undefined {
  if (params !== undefined && !isPlainObject(params)) {
    throw new McpError(ErrorCode.InvalidParams, "request params must be an object");
  }
  return params;
}
