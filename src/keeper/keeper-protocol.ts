/**
 * What a command and the connection keeper say to each other over the keeper's Unix socket: one JSON
 * object per line, each way. A command opens one socket connection, says `hello` (with the token only
 * the user can read), then sends requests, each with its own `id`; the keeper answers each with zero
 * or more events and then one final `ok` or `error` carrying the same id. Closing the socket cancels
 * that command's calls still running (the servers stay warm). CONTRACT: both sides code against this.
 */
import type { ToolProgress } from "../agent/tool.ts";
import type { ServerLogEntry, ServerStatus } from "../mcp/index.ts";
import type { ServerEntry } from "../mcp/config/server-config.ts";
import type { CallToolResult } from "../mcp/protocol.ts";

/** Changes whenever a message changes shape; a keeper speaking another one is replaced. */
export const KEEPER_PROTOCOL = 2;

/** How often a keeper busy with a command's connect or call says it is alive. */
export const KEEPER_HEARTBEAT_MS = 1000;
/** A command that hears nothing from a busy keeper for this long gives up on it. */
export const KEEPER_SILENCE_MS = 10_000;

/** Longer lines are refused (a tools/call result is bounded by the transport's own limit below it). */
export const MAX_KEEPER_LINE_BYTES = 512 * 1024 * 1024;

/** How a stdio server of an entry is started, as the command would start it itself: the keeper's own env and cwd are never used. */
export interface LaunchContext {
  /** The whole environment of the child, computed by the command (`serverEnvironment(config.env).env`). */
  env: Record<string, string>;
  /** The command's working directory (the child's, unless the entry names a `cwd`). */
  cwd: string;
}

/** One server a command wants, as it resolved it (entry after `${VAR}` expansion and `--timeout`). */
export interface ServerRequest {
  entry: ServerEntry;
  launch: LaunchContext;
}

/** What the server sent as an error, enough to rebuild the same `McpError` on the command's side. */
export interface WireError {
  message: string;
  /** The JSON-RPC or cat-code error code (McpError.code). */
  code?: number;
  needsAuth?: boolean;
  notOffered?: boolean;
  /** Not an McpError: a bug or a refusal of the keeper itself (bad token, bad request). */
  keeper?: boolean;
}

export type KeeperRequest =
  | { id: number; op: "hello"; protocol: number; version: string; token: string }
  /**
   * Connects (or reuses) each server: a warm connection is reused only while its fingerprint (the
   * resolved entry, the launch context and the roots) is unchanged. Statuses come back in the order
   * asked, exactly as a pool of the command's own would give them.
   */
  | {
      id: number;
      op: "connect";
      servers: ServerRequest[];
      roots: string[];
      /**
       * Whether the servers are told the command answers their questions (the elicitation
       * capability), as the command's own pool would tell them: `mcp call` does, `tools` and `list`
       * do not (a server may offer other tools to a client that answers). Part of the fingerprint.
       * Absent: declared.
       */
      elicitation?: boolean;
      /**
       * The command calls a tool on this socket next (`mcp call`): the connections stay in use from
       * this connect to the end of that call (or of the socket), so the gap between is no idle time
       * (an HTTP one keeps its stream, and does not list its tools again). Absent: false.
       */
      callFollows?: boolean;
    }
  /** Calls a tool of a server named in this socket's last `connect`. */
  | {
      id: number;
      op: "call";
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
      /** What the server's questions get: as `mcp call --elicitation`. */
      elicitation: "decline" | "accept-defaults";
    }
  /** The command gave a call up (Ctrl-C): the server is told, the connection stays. */
  | { id: number; op: "cancel"; target: number }
  | { id: number; op: "status" }
  /** Closes every warm connection of the server of this name (`mcp keeper stop <name>`, `mcp logout <name>`); answered once none is kept, while their servers still close. */
  | { id: number; op: "close"; server: string }
  /** Closes every server and exits; answered before the servers are closed. */
  | { id: number; op: "stop" };

export interface KeeperConnectionInfo {
  name: string;
  /** `stdio: …` / `http: …`, secrets redacted, as `mcp list` shows it. */
  description: string;
  state: ServerStatus["state"];
  /** How long it has been connected, and since its last use. */
  ageMs: number;
  idleMs: number;
  calls: number;
  /** The first 12 hex digits of the fingerprint: tells two connections of one name apart. */
  fingerprint: string;
}

export type KeeperEvent =
  | { id: number; event: "progress"; progress: ToolProgress }
  | { id: number; event: "log"; entry: ServerLogEntry }
  /** A line of cat-code's own for stderr (a declined question), already sanitized. */
  | { id: number; event: "note"; line: string }
  /**
   * A warning the server's connection gave in the keeper (a tool left out), sent to each command that
   * connects it: the command logs it (`log.warn(message)`) as its own connect would have. Not sanitized.
   */
  | { id: number; event: "warning"; message: string }
  /**
   * Sent with id 0 every KEEPER_HEARTBEAT_MS while the socket has a connect or call running: a command
   * that hears nothing at all for KEEPER_SILENCE_MS knows the keeper hung, not the server (whose own
   * timeouts the keeper keeps), and gives up instead of waiting for ever.
   */
  | { id: 0; event: "alive" };

export type KeeperAnswer =
  | { id: number; ok: { version: string; pid: number; startedAt: number } } // hello
  | { id: number; ok: { statuses: ServerStatus[] } } // connect
  | { id: number; ok: { result: CallToolResult } } // call
  | { id: number; ok: { version: string; pid: number; startedAt: number; connections: KeeperConnectionInfo[] } } // status
  | { id: number; ok: { closed: number } } // close
  | { id: number; ok: Record<string, never> } // cancel, stop
  | { id: number; error: WireError };

export type KeeperMessage = KeeperEvent | KeeperAnswer;
