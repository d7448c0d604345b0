import type { JsonRpcMessage, RequestId } from "../protocol.ts";

export interface SendOptions {
  /** Aborting gives the message up: HTTP stops its fetch and its stream. */
  signal?: AbortSignal;
  /** Extra HTTP headers for this one message (stdio ignores them). */
  headers?: Record<string, string>;
  /**
   * Hears that the transport starts (true) and stops (false) waiting on OAuth for this message: a
   * token, a refresh, a sign-in. The era probe's window does not count that time (probe-window.ts).
   */
  onAuthorizing?: (waiting: boolean) => void;
}

/**
 * Moves JSON-RPC messages to and from one server. It knows no JSON-RPC semantics beyond that:
 * ids, pending requests, replies and cancellation are the connection's (`rpc/json-rpc-connection.ts`).
 */
export interface Transport {
  /** Starts the connection (spawns the process, for stdio). Rejects with an `McpError` if it cannot. */
  start(): Promise<void>;
  /**
   * Sends one message. Stdio resolves once it is written. HTTP resolves a request once the exchange
   * is over, its answer delivered through `onMessage`, and rejects with an `McpError` when the
   * exchange failed instead (a status, an unreachable server, a stream that ended unanswered, an
   * error with a null id, an expired session); other messages resolve once the server accepted them.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Ends the connection. Safe to call twice. */
  close(): Promise<void>;

  /**
   * Each message from the server, parsed; a batch arrives as its items one by one. `carrier`: the
   * id of our request whose own exchange carried it (HTTP: that POST's response stream), so a
   * server request there is known to belong to that call; absent where nothing says (stdio, the
   * standalone GET stream).
   */
  onMessage?: (value: unknown, carrier?: RequestId) => void;
  /**
   * Called once when the transport ends: by itself (a crash: the error says why), or by `close()`
   * (a `ConnectionClosed` error). Nothing it was asked to send is answered after it.
   */
  onClose?: (error: Error) => void;
  /**
   * Tells the transport which protocol version is spoken (HTTP sends it as a header, and moves
   * messages the 2026-07-28 way for that version); undefined: none yet.
   */
  setProtocolVersion?(version: string | undefined): void;
  /**
   * How the transport carries messages, which decides how the client tells a server's protocol
   * era: "http" sends a modern request first, "stdio" probes with `server/discover` in a short
   * window. A transport that names none (an in-process test double) gets the handshake only.
   */
  readonly kind?: "stdio" | "http";
  /**
   * Asks for server messages that belong to no request (HTTP: the standalone GET stream); called
   * after every handshake, the first and each renewal.
   */
  openNotificationStream?(): void;
  /**
   * The credentials this transport has sent (HTTP: each configured header value and each
   * `Authorization` an authorizer gave it), so that server text quoting one back can be masked
   * before it is shown. A transport that sends none leaves it out.
   */
  credentials?(): string[];
  /**
   * Whether anyone uses the connection now (the connection keeper holds connections between
   * commands). While idle, HTTP keeps no stream open (the standalone GET is closed, and opened again
   * once in use), so a server that shuts down gracefully can; stdio has nothing to close.
   */
  setIdle?(idle: boolean): void;
  /** What the user sees in `mcp list`: `stdio: ./echo-server.sh`, `http: https://…`. */
  readonly description: string;
  /**
   * Whether a server that went away by itself may be started again with a new transport: a crashed
   * stdio process can (the pool restarts it if asked to); an HTTP server that went away is not
   * brought back by asking again at once. Absent: false.
   */
  readonly restartable?: boolean;
  /** The server's last `lines` stderr lines (stdio), to say why it failed; a transport without stderr leaves it out. */
  stderrTail?(lines: number): string[];
}

/** Hands each item of a message or batch to `deliver`. */
export function forEachMessage(value: unknown, deliver: ((item: unknown) => void) | undefined): void {
  if (!deliver) return;
  if (!Array.isArray(value)) return deliver(value);
  for (const item of value) deliver(item);
}
