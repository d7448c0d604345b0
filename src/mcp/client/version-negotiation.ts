import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from "../protocol.ts";
import { ModernErrorCode, MODERN_PROTOCOL_VERSION, UnsupportedVersionData } from "../stateless-protocol.ts";

/**
 * Telling the two protocol generations apart, and agreeing on a version. A client that speaks both
 * sends a modern request first (HTTP: any request; stdio: `server/discover`); the answer decides.
 */

/** "modern": per-request `_meta`, no handshake (2026-07-28). "legacy": the `initialize` handshake. */
export type Era = "modern" | "legacy";

export interface ProtocolChoice {
  era: Era;
  version: string;
}

/** Every version we speak, best first: the modern one, then the handshake ones newest first. */
export const OUR_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** What a failed modern request showed; `McpError` has these fields. */
export interface FailedProbe {
  /** The JSON-RPC code from the peer's error body; undefined when there was none. */
  code: number | undefined;
  /** The HTTP status of the answer; undefined over stdio. */
  status?: number;
}

/**
 * Whether a failed modern request came from a modern server: its body is one of the revision's own
 * errors (-32020 HeaderMismatch, -32021 MissingRequiredClientCapability, -32022
 * UnsupportedProtocolVersion), or, over HTTP, -32601 with status 404 (a modern server's "no such
 * method"; a legacy server answers it with 200, a bare 404 has no code). Anything else, a timeout
 * or a silent server included, means legacy: fall back to `initialize`. `code` must come from the
 * peer's JSON-RPC body; our own codes (closed, timeout, cancelled) never collide with these.
 */
export function isModernError(probe: FailedProbe): boolean {
  switch (probe.code) {
    case ModernErrorCode.HeaderMismatch:
    case ModernErrorCode.MissingRequiredClientCapability:
    case ModernErrorCode.UnsupportedProtocolVersion:
      return true;
    case ErrorCode.MethodNotFound:
      return probe.status === 404;
    default:
      return false;
  }
}

/**
 * The best version we and the server both speak, given the versions it lists (`supportedVersions`
 * of `server/discover`, `data.supported` of -32022). None in common: McpError -32022 listing both
 * sides, in words a user can act on.
 */
export function chooseVersion(serverVersions: readonly string[]): ProtocolChoice {
  const offered = new Set(serverVersions);
  const version = OUR_VERSIONS.find((ours) => offered.has(ours));
  if (version !== undefined) return { era: version === MODERN_PROTOCOL_VERSION ? "modern" : "legacy", version };
  throw new McpError(
    ModernErrorCode.UnsupportedProtocolVersion,
    `no protocol version in common: the server speaks ${listed(serverVersions)}; cat-code speaks ${OUR_VERSIONS.join(", ")}`,
    { data: { supported: serverVersions.slice(0, 64), ours: OUR_VERSIONS } },
  );
}

/**
 * The version to retry with after an UnsupportedProtocolVersion error (-32022), from its
 * `data.supported`. An error without a readable list is McpError InvalidResult: the server refused
 * our version without saying which it speaks.
 */
export function versionAfterRejection(error: { code: number | undefined; data?: unknown }): ProtocolChoice {
  if (error.code !== ModernErrorCode.UnsupportedProtocolVersion) {
    throw new TypeError(`versionAfterRejection needs an UnsupportedProtocolVersion error (-32022), not ${error.code}`);
  }
  const data = v.safeParse(UnsupportedVersionData, error.data);
  if (!data.success) {
    throw new McpError(
      ErrorCode.InvalidResult,
      `the server refused protocol version ${MODERN_PROTOCOL_VERSION} without a valid list of the versions it supports (data.supported: ${data.issues[0].message})`,
    );
  }
  return chooseVersion(data.output.supported);
}

/** A server's version list for a message: quoted (a hostile one shows as data), cut short. */
function listed(versions: readonly string[]): string {
  if (versions.length === 0) return "none it would name";
  const shown = versions.slice(0, 8).map((version) => JSON.stringify(version.slice(0, 40)));
  return `${shown.join(", ")}${versions.length > shown.length ? ` and ${versions.length - shown.length} more` : ""}`;
}
