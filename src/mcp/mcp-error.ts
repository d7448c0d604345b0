import { ErrorCode } from "./protocol.ts";

export interface McpErrorOptions {
  data?: unknown;
  cause?: unknown;
  /** The HTTP status of the answer that failed, for errors of the HTTP transport. */
  status?: number;
  /** The endpoint that failed, already redacted (`redactUrl`): safe to show. */
  url?: string;
}

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

  constructor(code: number | undefined, message: string, options: McpErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.data = options.data;
    this.status = options.status;
    this.url = options.url;
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
