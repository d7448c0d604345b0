import { ErrorCode } from "./protocol.ts";

/**
 * The one error of the MCP layers. `code` is the JSON-RPC error code when the peer sent one, or one
 * of our own (`ConnectionClosed`, `RequestTimeout`); `undefined` when there is no code to give
 * (a spawn failure, say). Messages say what happened in words a user can act on.
 */
export class McpError extends Error {
  override readonly name = "McpError";
  readonly code: number | undefined;
  readonly data: unknown;

  constructor(code: number | undefined, message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.data = options.data;
  }

  static timeout(method: string, ms: number): McpError {
    return new McpError(ErrorCode.RequestTimeout, `${method} timed out after ${ms} ms`);
  }

  static closed(message: string): McpError {
    return new McpError(ErrorCode.ConnectionClosed, message);
  }

  get isTimeout(): boolean {
    return this.code === ErrorCode.RequestTimeout;
  }
}

/** An abort from the caller (Ctrl-C, a cancelled turn): not a failure of the server. */
export class McpCancelledError extends Error {
  override readonly name = "McpCancelledError";
  constructor(method: string) {
    super(`${method} was cancelled`);
  }
}
