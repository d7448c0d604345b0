import { type AuthContext, type ElicitationHandler, hasStoredTokens, McpError, type ProgressUpdate, type ServerConnection, type ServerLogEntry, type ServerStatus, type Transport } from "../mcp/index.ts";
import type { ServerEntry } from "../mcp/config/server-config.ts";
import type { ClockTimer } from "../system/clock.ts";
import type { ServerRequest } from "./keeper-protocol.ts";

/**
 * One warm connection of the keeper, as WarmConnections keeps it, and who is using it: the
 * operations of commands' sockets (a connect or a call) under way on it, which hear its log lines
 * and answer its questions.
 */

/** One operation of one socket (a connect or a call) under way on a connection: it hears the server's log. */
export interface ConnectionListener {
  /** The socket it came from: a log line goes once to each socket, whatever it has in flight. */
  socket: object;
  onLog(entry: ServerLogEntry): void;
  /** The connection's warnings (tools left out): each connect hears them all, as its own connect would give them. */
  onWarning?(message: string): void;
}

/** A call under way: also answers the server's questions, as `mcp call --elicitation` says. */
export interface CallListener extends ConnectionListener {
  signal: AbortSignal;
  elicitation: ElicitationHandler;
  onProgress(update: ProgressUpdate): void;
}

export interface Warm {
  fingerprint: string;
  /** Its entry's alone (see entryKey): the keeper holds at most MAX_CONNECTIONS_PER_ENTRY of one. */
  entryKey: string;
  request: ServerRequest;
  connection: ServerConnection;
  /** The transport its connection made last: a stdio one's pid is its server's (see `mcp keeper status`). */
  transport?: Transport;
  /** Its sign-in: the store its requests take their tokens from at each send; it holds none itself. */
  auth: AuthContext;
  /** Whether tokens were stored for it when it connected. */
  signedIn: boolean;
  ready: Promise<ServerStatus>;
  connecting: boolean;
  createdAt: number;
  lastUsed: number;
  calls: number;
  listeners: Set<ConnectionListener>;
  /**
   * Sockets whose command calls a tool after its `connect` (see the request's `callFollows`): the
   * connection stays in use from the connect to the end of that call, or of the socket.
   */
  holders: Set<object>;
  /** What its connection warned of (bounded): replayed to every command that connects. */
  warnings: string[];
  keepAliveMs: number;
  idleTimer?: ClockTimer;
  /** An idle HTTP connection listing its tools again before a command may use it (see `reuse`). */
  relisting?: Promise<boolean>;
}

/** HTTP: the kind of connection that keeps no stream open while idle, and so lists its tools again (see WarmConnections.reuse). */
export function isHttp(entry: ServerEntry): boolean {
  return entry.ok && entry.config.type === "http";
}

/** A command uses it: an operation under way, or a socket that holds it until its call. */
export function inUse(warm: Warm): boolean {
  return warm.listeners.size > 0 || warm.holders.size > 0;
}

/** Connecting, or connected with a client that still works (a crashed server, a lost session: not). */
export function isAlive(warm: Warm): boolean {
  if (warm.connecting) return true;
  return warm.connection.client?.state.status === "connected";
}

/**
 * The server refused the connection's sign-in (a grant revoked at the authorization server, tokens
 * still stored): connected anew it is NEEDS-AUTH, as a cold command sees it. Not a 403 asking for
 * more scope: the sign-in still lists the tools, and a cold `mcp list` says CONNECTED.
 */
export function refusesSignIn(error: unknown): boolean {
  return error instanceof McpError && error.kind === "needs-auth" && error.status !== 403;
}

/** Connected with stored tokens that are gone now (`mcp logout`). */
export function signedOut(warm: Warm): boolean {
  return warm.signedIn && !hasStoredTokens(warm.request.entry, warm.auth);
}

/** A server's log line goes once to each socket that has something in flight on it. */
export function forEachSocket(warm: Warm, send: (listener: ConnectionListener) => void): void {
  const seen = new Set<object>();
  for (const listener of warm.listeners) {
    if (seen.has(listener.socket)) continue;
    seen.add(listener.socket);
    send(listener);
  }
}

/**
 * The call a server's question belongs to: the one whose signal came with it (an input request of
 * 2026-07-28 carries its call's), else the latest call under way on the connection.
 */
export function callFor(warm: Warm, signal: AbortSignal | undefined): CallListener | undefined {
  const calls = [...warm.listeners].filter((listener): listener is CallListener => "elicitation" in listener);
  return calls.find((call) => call.signal === signal) ?? calls.at(-1);
}
