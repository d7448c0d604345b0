import { isPlainObject } from "../../system/plain-object.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import type { ClientCapabilities, LoggingLevel, ProgressToken } from "../stateless-protocol.ts";
import { withRequestMeta } from "./request-meta.ts";
import type { Era } from "./version-negotiation.ts";

export interface EraParamsOptions {
  /** What the client declares (modern: on every request). */
  capabilities: ClientCapabilities;
  /** The level of `notifications/message` asked for on a modern request's stream. */
  logLevel: LoggingLevel;
  progressToken?: ProgressToken;
}

/**
 * The params a request goes with in an era. Modern: the revision's `_meta` (version, identity,
 * capabilities, log level, progress token) on every request. Legacy: the params as given, with
 * only `_meta.progressToken` added when there is one (the handshake said the rest once).
 */
export function paramsForEra(era: Era, params: unknown, options: EraParamsOptions): unknown {
  if (params !== undefined && !isPlainObject(params)) {
    throw new McpError(ErrorCode.InvalidParams, "request params must be an object");
  }
  if (era === "modern") {
    return withRequestMeta(params, { capabilities: options.capabilities, logLevel: options.logLevel, progressToken: options.progressToken });
  }
  if (options.progressToken === undefined) return params;
  const existing = params?._meta;
  const meta = isPlainObject(existing) ? existing : {};
  return { ...params, _meta: { ...meta, progressToken: options.progressToken } };
}
