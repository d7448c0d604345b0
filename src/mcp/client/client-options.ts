import type { Clock } from "../../system/clock.ts";
import type { JsonRpcNotification } from "../protocol.ts";
import type { ClientCapabilities, ProgressToken } from "../stateless-protocol.ts";
import type { ClientFeatureOptions } from "./client-capabilities.ts";
import type { BoundEraMemory } from "./era/era-opening.ts";
import type { ProgressUpdate } from "./progress.ts";
import type { CallProgress } from "./request-timeout.ts";
import type { ServerLogEntry } from "./server-log.ts";
import type { RejectedTool } from "./tool-definitions.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;

export type ClientState =
  | { status: "idle" }
  | { status: "connecting" }
  | { status: "connected" }
  | { status: "failed"; reason: string }
  | { status: "closed" };

export interface CallOptions {
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** Aborting cancels the call: the server is told, and the call rejects with an `McpError` whose code is `RequestCancelled`. */
  signal?: AbortSignal;
  /** Hears the call's `notifications/progress`, each with a progress greater than the last. */
  onProgress?: (progress: ProgressUpdate) => void;
  /**
   * A gateway's: what the client it makes this call for declared. A 2026-07-28 server is told that
   * (within what this client declares: forwardedCapabilities), so it asks only what that client can
   * answer. A handshake-revision server was told our capabilities once, at `initialize`: unchanged.
   */
  clientCapabilities?: ClientCapabilities;
}

/** A request's options inside the client: a call's, plus what the protocol adds to it. */
export type RequestOptions = CallOptions & {
  /** Asks for `notifications/progress` with this token (`_meta.progressToken`). */
  progressToken?: ProgressToken;
  /** Extra HTTP headers for this request (`Mcp-Param-*`); stdio ignores them. */
  headers?: Record<string, string>;
  /** A call whose progress resets the request's timeout (tools/call). */
  progress?: CallProgress;
  /** Hears the request's id before it is sent (the era probe keeps it: its answer may come late). */
  registration?: { registered(id: number): void };
  /** Hears the transport wait on OAuth (the probe's window stands still meanwhile). */
  onAuthorizing?: (waiting: boolean) => void;
};

export interface McpClientOptions extends ClientFeatureOptions {
  /** The server's name in the config: what messages and the elicitation question call it. */
  name?: string;
  /** Per-request timeout; the default is 30 s. */
  timeoutMs?: number;
  /** Where the timeouts get their time; the system clock unless a test hands in a fake. */
  clock?: Clock;
  /** Hears every server notification, after the client's own handling (progress to its call, logs to `onLog`). */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Hears of each listed tool that is left out (too deep, too large, malformed); the default logs a warning. */
  onRejectedTool?: (tool: RejectedTool) => void;
  /** Hears each valid `notifications/message`; the pool names the server in `entry.server`. */
  onLog?: (entry: ServerLogEntry) => void;
  /** The era this server spoke last time: a legacy one skips the probe (see `connect`). */
  eraMemory?: BoundEraMemory;
  /**
   * Values never to show in what the server says, raw (the entry's secrets: see entrySecretValues;
   * `secretValues` derives their forms); the credentials the transport sent are masked as well.
   * Applied to every error and failure reason this client reports, to every string of a tool's
   * error result, and to the server's log and progress messages.
   */
  secrets?: () => readonly string[];
  /**
   * Straight to `initialize`, no probe: the pool starts a stdio server again so when the probe
   * ended it (the `McpError` kind `probe-ended`); the era found is remembered.
   */
  skipProbe?: boolean;
  /** Whether a 2026-07-28 server that declares `listChanged` (tools, resources, prompts) gets a `subscriptions/listen` for it (default true). */
  watchChanges?: boolean;
  /**
   * Hears, once, that a connected server went away by itself: a stdio server that exited (the error
   * carries its exit code and stderr tail), an HTTP server that no longer answers at all. The client
   * is FAILED from then on.
   */
  onLost?: (error: Error) => void;
}
