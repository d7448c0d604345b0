import { McpError } from "../../src/mcp/mcp-error.ts";
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId } from "../../src/mcp/protocol.ts";
import type { Transport } from "../../src/mcp/transport/transport.ts";

/** What the scripted server does with one request: answer, fail, or never answer. */
export type Handler = (params: any, request: { id: number; method: string }) => unknown | Promise<unknown>;

/**
 * An in-memory transport whose "server" is a table of handlers, for client semantics (handshake,
 * paging, timeouts, errors) without processes. It works at the message level, as a real transport
 * does: it receives the request messages the connection sends and answers through `onMessage`;
 * ids, cancellation and dispatch stay the connection's.
 */
export class MemoryTransport implements Transport {
  onMessage?: (value: unknown) => void;
  onClose?: (error: Error) => void;
  readonly description = "memory: test";
  /** Every request and notification received, in order (replies to server requests are not listed). */
  readonly sent: { method: string; params?: unknown; id?: RequestId }[] = [];
  started = 0;
  closed = 0;
  notificationStreamsOpened = 0;
  protocolVersion: string | undefined;
  private ended = false;
  private serverRequests = 0;
  private readonly awaitingReplies = new Map<RequestId, (reply: JsonRpcResponse) => void>();

  constructor(private readonly handlers: Record<string, Handler>) {}

  async start(): Promise<void> {
    this.started++;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.ended) throw McpError.closed("the connection was closed");
    if (!("method" in message)) {
      // A reply to a request of the server's.
      const id = message.id ?? "";
      this.awaitingReplies.get(id)?.(message);
      this.awaitingReplies.delete(id);
      return;
    }
    if (!("id" in message)) {
      this.sent.push({ method: message.method, params: message.params });
      return;
    }
    this.sent.push({ method: message.method, params: message.params, id: message.id });
    queueMicrotask(() => void this.answer(message));
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  openNotificationStream(): void {
    this.notificationStreamsOpened++;
  }

  async close(): Promise<void> {
    this.closed++;
    this.end(McpError.closed("the connection was closed"));
  }

  /** The server sends a request to the client; resolves to what the client answered. */
  async serverRequest(method: string, params?: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const id = `s-${++this.serverRequests}`;
    const reply = new Promise<JsonRpcResponse>((resolve) => this.awaitingReplies.set(id, resolve));
    this.deliver({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    const response = await reply;
    return "error" in response ? { error: { code: response.error.code, message: response.error.message } } : { result: response.result };
  }

  /** The server sends a notification. */
  serverNotification(method: string, params?: unknown): void {
    this.deliver({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** Hands the client any message, as if the server had sent it. */
  deliver(value: unknown): void {
    this.onMessage?.(value);
  }

  /** The connection ends by itself (a crash). */
  crash(message: string): void {
    this.end(McpError.closed(message));
  }

  private end(error: McpError): void {
    if (this.ended) return;
    this.ended = true;
    this.onClose?.(error);
  }

  private async answer(request: JsonRpcRequest): Promise<void> {
    const { id, method } = request;
    const handler = this.handlers[method];
    let response: JsonRpcResponse;
    if (!handler) {
      response = { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
    } else {
      try {
        const result = await handler(request.params, { id: id as number, method });
        if (result === NEVER) return;
        response = { jsonrpc: "2.0", id, result };
      } catch (error) {
        const code = error instanceof McpError && error.code !== undefined ? error.code : -32603;
        response = { jsonrpc: "2.0", id, error: { code, message: (error as Error).message } };
      }
    }
    if (!this.ended) this.deliver(response);
  }
}

/** A handler result that means: never answer. */
export const NEVER = Symbol("never answer");

export function initializeHandler(protocolVersion = "2025-11-25"): Handler {
  return () => ({ protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "memory", version: "1.2.3" } });
}
