import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from "../protocol.ts";

export interface RequestOptions {
  /** Aborting rejects the request at once and forgets its id; a late answer is dropped. */
  signal?: AbortSignal;
}

/** Answers a request the server sent us; throw an `McpError` to answer with a JSON-RPC error. */
export type ServerRequestHandler = (request: JsonRpcRequest) => Promise<unknown> | unknown;

/**
 * Moves JSON-RPC messages to one server and correlates answers with requests. It knows no MCP
 * semantics: what to answer to a server's request is the handler's business.
 */
export interface Transport {
  /** Starts the connection (spawns the process, for stdio). Rejects with an `McpError` if it cannot. */
  start(): Promise<void>;
  /** Resolves to the `result`, or rejects with an `McpError` (JSON-RPC error, closed connection). */
  request(method: string, params?: unknown, options?: RequestOptions): Promise<unknown>;
  notify(method: string, params?: unknown): Promise<void>;
  /** Ends the connection and fails every pending request. Safe to call twice. */
  close(): Promise<void>;

  onServerRequest?: ServerRequestHandler;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Called once when the connection ends by itself (not after `close()`). */
  onClose?: (error: Error) => void;
  /** Tells the transport which protocol version was agreed (HTTP sends it as a header). */
  setProtocolVersion?(version: string): void;
  /** Asks for server messages that belong to no request (HTTP: the standalone GET stream); called once the handshake is done. */
  openNotificationStream?(): void;
  /** What the user sees in `mcp list`: `stdio: ./echo-server.sh`, `http: https://…`. */
  readonly description: string;
}

/**
 * The response to a request the server sent us: the handler's result, or the error it threw as a
 * JSON-RPC error (-32601 when there is no handler). A server's request is never left unanswered.
 */
export async function replyToServerRequest(
  handler: ServerRequestHandler | undefined,
  request: JsonRpcRequest,
): Promise<JsonRpcResponse> {
  try {
    if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    return { jsonrpc: "2.0", id: request.id, result: (await handler(request)) ?? {} };
  } catch (error) {
    const code = error instanceof McpError && error.code !== undefined ? error.code : ErrorCode.InternalError;
    return { jsonrpc: "2.0", id: request.id, error: { code, message: (error as Error).message } };
  }
}

/** Passes a server notification up; a failing handler is logged, never allowed to break the reader. */
export function deliverNotification(
  handler: ((notification: JsonRpcNotification) => void) | undefined,
  notification: JsonRpcNotification,
): void {
  try {
    handler?.(notification);
  } catch (error) {
    log.debug(`notification handler failed on ${notification.method}: ${(error as Error).message}`);
  }
}
