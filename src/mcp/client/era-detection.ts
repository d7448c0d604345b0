import * as v from "valibot";
import { isCancellation, McpError } from "../mcp-error.ts";
import { Implementation } from "../protocol.ts";
import { DiscoverResult, MetaKey, ModernErrorCode, MODERN_PROTOCOL_VERSION } from "../stateless-protocol.ts";
import { isModernError, versionAfterRejection } from "./version-negotiation.ts";

/**
 * Telling a server's protocol era from its answer to one modern request (`server/discover`, sent
 * with the 2026-07-28 `_meta`, and over HTTP its headers), as the revision's versioning page and
 * test/conformance/SCENARIOS.md say real servers answer it. The client sends the probe and opens
 * the era found; this file only decides.
 */

/**
 * How long a server gets to answer the probe, over stdio and HTTP alike. A legacy server may stay
 * silent on a request before `initialize` (the spec allows the probe to time out); servers that
 * answer do so in milliseconds, so this costs only the silent ones, once: the era memory skips the
 * probe next time.
 */
export const PROBE_WINDOW_MS = 1500;

/** How messages name the probe when it is the step that failed. */
export const PROBE_STEP = "server/discover (the era probe)";

/** A server that speaks the modern revision, with what its `server/discover` said (when it answered one). */
export interface ModernServer {
  era: "modern";
  version: string;
  serverInfo: Implementation | undefined;
  capabilities: Record<string, unknown>;
  instructions: string | undefined;
}

/** `silent`: the server did not answer within the window (a legacy server, or a modern one still starting). */
export type EraFinding = ModernServer | { era: "legacy"; silent?: boolean };

export interface EraProbe {
  kind: "stdio" | "http";
  /** Sends `server/discover` the modern way (a -32022 already retried once); resolves to its raw result. */
  discover(): Promise<unknown>;
  /** Whether the connection itself has ended (a stdio server that exited): nothing to fall back on. */
  connectionEnded(): boolean;
}

/** Probes once and decides; rejects only when neither era can work (the error says why). */
export async function detectEra(probe: EraProbe): Promise<EraFinding> {
  let raw: unknown;
  try {
    raw = await probe.discover();
  } catch (error) {
    return afterFailedProbe(error, probe);
  }
  return fromDiscoverResult(raw);
}

/**
 * A successful discover is modern only if it says so: some legacy servers answer any method with
 * `{}` (SCENARIOS.md), and a list without our modern version leaves the handshake to agree one.
 */
export function fromDiscoverResult(raw: unknown): EraFinding {
  const parsed = v.safeParse(DiscoverResult, raw);
  if (!parsed.success || !parsed.output.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) return { era: "legacy" };
  const result = parsed.output;
  // The schema puts serverInfo in `_meta`; some servers put it at the top level.
  const topLevel = v.safeParse(Implementation, (result as Record<string, unknown>).serverInfo);
  return {
    era: "modern",
    version: MODERN_PROTOCOL_VERSION,
    serverInfo: result._meta?.[MetaKey.serverInfo] ?? (topLevel.success ? topLevel.output : undefined),
    capabilities: result.capabilities,
    instructions: result.instructions,
  };
}

function afterFailedProbe(error: unknown, probe: EraProbe): EraFinding {
  if (!(error instanceof McpError) || isCancellation(error)) throw error;
  // An unreachable server, a refused sign-in: `initialize` would fail the same way.
  if (error.kind === "unreachable" || error.status === 401 || error.status === 403) throw error;
  // Some legacy stdio servers exit, or close stdout, on a method they do not know: the caller may
  // start the server again and go straight to `initialize`.
  if (probe.connectionEnded()) throw error.with({ kind: probe.kind === "stdio" ? "probe-ended" : error.kind });
  // Silence within the window: a legacy server may ignore a request before `initialize`.
  if (error.isTimeout) return { era: "legacy", silent: true };
  switch (error.code) {
    case ModernErrorCode.UnsupportedProtocolVersion: {
      // Throws when the server names no version we speak.
      if (versionAfterRejection(error).era === "legacy") return { era: "legacy" };
      throw new McpError(error.code, `the server refused protocol version ${MODERN_PROTOCOL_VERSION} twice though it lists it as supported: ${error.message}`, {
        data: error.data,
        status: error.status,
        url: error.url,
      });
    }
    case ModernErrorCode.HeaderMismatch:
    case ModernErrorCode.MissingRequiredClientCapability:
      throw new McpError(error.code, `the server speaks MCP ${MODERN_PROTOCOL_VERSION} but refused cat-code's request: ${error.message}`, {
        data: error.data,
        status: error.status,
        url: error.url,
      });
  }
  // A modern server without `server/discover` (404 with -32601): modern, knowing nothing more of it.
  if (isModernError(error)) return { era: "modern", version: MODERN_PROTOCOL_VERSION, serverInfo: undefined, capabilities: {}, instructions: undefined };
  return { era: "legacy" };
}

/**
 * Whether a failed request was answered by the server (an error, a status, a bad result, or a
 * stdio server's silence), as opposed to a connection that failed: a remembered era that meets
 * such an answer no longer holds, and the server is probed again.
 */
export function answeredByServer(error: unknown, connectionEnded: boolean): boolean {
  if (!(error instanceof McpError) || isCancellation(error) || connectionEnded) return false;
  return error.kind !== "unreachable" && !error.isTimeout;
}

/** Whether a -32022 still lists our modern version: the request is worth one more try (a transient refusal). */
export function stillOffersModern(error: McpError): boolean {
  if (error.code !== ModernErrorCode.UnsupportedProtocolVersion) return false;
  try {
    return versionAfterRejection(error).era === "modern";
  } catch {
    return false;
  }
}
