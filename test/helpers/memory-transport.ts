import { McpError } from "../../src/mcp/mcp-error.ts";
import type { JsonRpcNotification, JsonRpcRequest } from "../../src/mcp/protocol.ts";
import { PendingRequests } from "../../src/mcp/transport/pending-requests.ts";
import type { RequestOptions, ServerRequestHandler, Transport } from "../../src/mcp/transport/transport.ts";

/** What the scripted server does with one request: answer, fail, or never answer. */
export type Handler = (params: any, request: { id: number; method: string }) => unknown | Promise<unknown>;

/**
 * An in-memory transport whose "server" is a table of handlers: for client semantics (handshake,
 * paging, timeouts, errors) without processes. It keeps the Transport contract: pending requests
 * correlated by id, aborts send notifications/cancelled, close fails what is pending.
 */
export class MemoryTransport implements Transport {
  onServerRequest?: ServerRequestHandler;
  onNotification?: (notification: JsonRpcNotification) => void;
  onClose?: (error: Error) => void;
  readonly description = "memory: test";
  readonly sent: { method: string; params?: unknown; id?: number }[] = [];
  started = 0;
  closed = 0;
  protocolVersion: string | undefined;
  private readonly pending = new PendingRequests((requestId, method, reason) => {
    if (method !== "initialize") void this.notify("notifications/cancelled", { requestId, reason });
  });

  constructor(private readonly handlers: Record<string, Handler>) {}

  async start(): Promise<void> {
    this.started++;
  }

  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    const { id, answer } = this.pending.register(method, options.signal);
    this.sent.push({ method, params, id });
    const handler = this.handlers[method];
    queueMicrotask(async () => {
      if (!handler) return this.pending.settle({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
      try {
        const result = await handler(params, { id, method });
        if (result === NEVER) return;
        this.pending.settle({ jsonrpc: "2.0", id, result });
      } catch (error) {
        const code = error instanceof McpError && error.code !== undefined ? error.code : -32603;
        this.pending.settle({ jsonrpc: "2.0", id, error: { code, message: (error as Error).message } });
      }
    });
    return answer;
  }

  async notify(method: string, params?: unknown): Promise<void> {
    this.sent.push({ method, params });
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async close(): Promise<void> {
    this.closed++;
    this.pending.failAll(McpError.closed("the connection was closed"));
  }

  /** The server sends a request to the client; resolves to what the client answered. */
  async serverRequest(method: string, params?: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const request: JsonRpcRequest = { jsonrpc: "2.0", id: "s-1", method, params };
    try {
      return { result: await this.onServerRequest?.(request) };
    } catch (error) {
      return { error: { code: (error as McpError).code ?? -32603, message: (error as Error).message } };
    }
  }

  /** The connection ends by itself (a crash). */
  crash(message: string): void {
    const error = McpError.closed(message);
    this.pending.failAll(error);
    this.onClose?.(error);
  }
}

/** A handler result that means: never answer. */
export const NEVER = Symbol("never answer");

export function initializeHandler(protocolVersion = "2025-11-25"): Handler {
  return () => ({ protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "memory", version: "1.2.3" } });
}
