import type { JsonRpcNotification, JsonRpcRequest } from "../protocol.ts";

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
  /** What the user sees in `mcp list`: `stdio: ./echo-server.sh`, `http: https://…`. */
  readonly description: string;
}
