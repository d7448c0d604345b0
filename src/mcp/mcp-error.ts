import { ErrorCode, type JsonRpcErrorObject } from "./protocol.ts";

/**
 * The longest error message from a server we keep. It reaches a terminal and, as a tool's error
 * result, the model; a real one is a sentence or a stack trace, never megabytes.
 */
export const MAX_ERROR_MESSAGE_CHARS = 4000;

/**
 * The failures callers tell apart beyond the code:
 * - `session-expired`: the request carried a session the server no longer knows (HTTP 404): the
 *   client may renew it.
 * - `stream-lost`: a modern (2026-07-28) HTTP response stream ended before the response: there is no
 *   resumption in that revision, so the request is lost and the client may send it again with a new id.
 * - `unreachable`: the server could not be reached at all (no HTTP answer): nothing was said by a server.
 * - `needs-auth`: the server wants an OAuth sign-in that only the user can give (no tokens, a refused
 *   refresh, a token without the scope a request needs): the server is NEEDS-AUTH, not FAILED.
 * - `not-offered`: the server never declared the capability the request needs: nothing was sent.
 * - `probe-ended`: the era probe (`server/discover`) ended a stdio server's connection: it exited or
 *   closed its stdout, as some legacy servers do on a method they do not know. Started again, it gets
 *   `initialize` first.
 */
export const MCP_ERROR_KINDS = ["session-expired", "stream-lost", "unreachable", "needs-auth", "not-offered", "probe-ended"] as const;
export type McpErrorKind = (typeof MCP_ERROR_KINDS)[number];

export interface McpErrorOptions {
  data?: unknown;
  cause?: unknown;
  /** The HTTP status of the answer that failed, for errors of the HTTP transport. */
  status?: number;
  /** The endpoint that failed, already redacted (`redactUrl`): safe to show. */
  url?: string;
  /** What kind of failure this is, when a caller must tell it apart (see `McpErrorKind`). */
  kind?: McpErrorKind;
}

/** How a message names each feature a server may not offer, and the capability it did not declare. */
const FEATURE_WORDS: Record<string, { words: string; capability: string }> = {
  resources: { words: "resources", capability: "resources" },
  resourceSubscriptions: { words: "resource subscriptions", capability: "resources.subscribe" },
  prompts: { words: "prompts", capability: "prompts" },
  completions: { words: "completions", capability: "completions" },
};

/**
 * The one error of the MCP layers. `code` is the JSON-RPC error code when the peer sent one, or one
 * of our own (`ConnectionClosed`, `RequestTimeout`, `RequestCancelled`, `InvalidResult`); `undefined`
 * when there is no code to give (a spawn failure, say). Callers test the code, never the class or
 * the text. Messages say what happened in words a user can act on. HTTP failures keep their status
 * and url as fields, whatever the body said, so a JSON-RPC error in a 500 still shows it was a 500.
 */
export class McpError extends Error {
  override readonly name = "McpError";
  readonly code: number | undefined;
  readonly data: unknown;
  readonly status: number | undefined;
  readonly url: string | undefined;
  readonly kind: McpErrorKind | undefined;

  constructor(code: number | undefined, message: string, options: McpErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.data = options.data;
    this.status = options.status;
    this.url = options.url;
    this.kind = options.kind;
  }

  /** The same error with another message or kind; code, fields and kind are kept, the original is the cause. */
  with(changes: McpErrorOptions & { message?: string }): McpError {
    const { message = this.message, ...options } = changes;
    const { data, status, url, kind } = this;
    const kept = { data, status, url, kind };
    return new McpError(this.code, message, { ...kept, cause: this, ...options });
  }

  /** A JSON-RPC error object from the server, its message cut where it enters. */
  static fromJsonRpc(error: JsonRpcErrorObject): McpError {
    return new McpError(error.code, boundedMessage(error.message), { data: error.data });
  }

  /**
   * The server at `url` (redacted) answered 404 to a request that carried its session: the session
   * is gone. Only the client knows how to start a new one (the handshake), so it is told by this kind.
   */
  static sessionExpired(url: string): McpError {
    return new McpError(ErrorCode.ConnectionClosed, `the server at ${url} no longer knows the session (404)`, {
      status: 404,
      url,
      kind: "session-expired",
    });
  }

  /**
   * The server did not declare `feature` (a ServerFeature: resources, resourceSubscriptions, prompts,
   * completions), so it was not asked: callers tell this apart by the kind `not-offered`.
   */
  static notOffered(server: string, feature: string): McpError {
    const { words, capability } = FEATURE_WORDS[feature] ?? { words: feature, capability: feature };
    return new McpError(ErrorCode.MethodNotFound, `MCP server '${server}' does not offer ${words} (it declares no '${capability}' capability)`, {
      kind: "not-offered",
    });
  }

  static timeout(method: string, ms: number): McpError {
    return new McpError(ErrorCode.RequestTimeout, `${method} timed out after ${ms} ms`);
  }

  static closed(message: string): McpError {
    return new McpError(ErrorCode.ConnectionClosed, message);
  }

  /** An abort from the caller (Ctrl-C, a cancelled turn): not a failure of the server. */
  static cancelled(method: string): McpError {
    return new McpError(ErrorCode.RequestCancelled, `${method} was cancelled`);
  }

  get isTimeout(): boolean {
    return this.code === ErrorCode.RequestTimeout;
  }

  get isCancelled(): boolean {
    return this.code === ErrorCode.RequestCancelled;
  }
}

/** Whether `error` is the caller's own cancellation (tested by code: one error class for the layer). */
export function isCancellation(error: unknown): boolean {
  return error instanceof McpError && error.isCancelled;
}

/**
 * A failure of one step of connecting (`server/discover`, `initialize`, `tools/list`), its message
 * naming the step: "initialize failed: the server exited with code 3". Kept as it is: a message
 * that names the step already (a timeout: "initialize timed out after 30000 ms"), and what no step
 * of the server's caused (an unreachable server, a redirect, a refused authorization, the caller's
 * cancellation).
 */
export function failedAt(step: string, error: unknown): unknown {
  if (!(error instanceof McpError) || error.message.startsWith(step) || error.isCancelled) return error;
  if (error.kind === "unreachable" || error.kind === "needs-auth" || aboutAddressOrAccess(error.status)) return error;
  return error.with({ message: `${step} failed: ${error.message}` });
}

/** A redirect (the entry's url), 401 or 403 (its credentials): any request would meet it, whatever the step. */
function aboutAddressOrAccess(status: number | undefined): boolean {
  return status !== undefined && ((status >= 300 && status < 400) || status === 401 || status === 403);
}

function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_CHARS) return message;
  return `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}… (${(message.length - MAX_ERROR_MESSAGE_CHARS).toLocaleString("en-US")} more characters not shown)`;
}
