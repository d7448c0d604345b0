import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { type ClientCapabilities, type LoggingLevel, MetaKey, MODERN_PROTOCOL_VERSION, type ProgressToken } from "../stateless-protocol.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { VERSION } from "../../version.ts";

/** Who we are, in `initialize` (handshake revisions) and in every modern request's `_meta`. */
export const CLIENT_INFO = { name: "cat-code", version: VERSION } as const;

export interface RequestMetaOptions {
  /** What this request declares; servers must not infer it from earlier requests. */
  capabilities: ClientCapabilities;
  /** Defaults to the modern version; a negotiation may pick another modern one. */
  protocolVersion?: string;
  /** Asks for `notifications/message` at this level and above on the request's stream. */
  logLevel?: LoggingLevel;
  /** Asks for `notifications/progress` carrying this token. */
  progressToken?: ProgressToken;
}

/**
 * The params of a modern request: `params` with a `_meta` that carries the version, our identity
 * and capabilities, and the opt-ins given. A `_meta` the params already have keeps its other keys
 * (a caller's own metadata); the protocol keys are ours, since the HTTP headers mirror them and
 * must agree. Neither `params` nor its `_meta` is changed: a retry (a new version, an MRTR round)
 * builds from the same original.
 */
export function withRequestMeta(params: Record<string, unknown> | undefined, options: RequestMetaOptions): Record<string, unknown> {
  const existing = params?._meta;
  if (existing !== undefined && !isPlainObject(existing)) {
    throw new McpError(ErrorCode.InvalidParams, `params._meta must be an object, not ${existing === null ? "null" : Array.isArray(existing) ? "an array" : `a ${typeof existing}`}`);
  }
  const meta: Record<string, unknown> = {
    ...existing,
    [MetaKey.protocolVersion]: options.protocolVersion ?? MODERN_PROTOCOL_VERSION,
    [MetaKey.clientInfo]: CLIENT_INFO,
    [MetaKey.clientCapabilities]: options.capabilities,
  };
  if (options.logLevel !== undefined) meta[MetaKey.logLevel] = options.logLevel;
  if (options.progressToken !== undefined) meta[MetaKey.progressToken] = options.progressToken;
  return { ...params, _meta: meta };
}
