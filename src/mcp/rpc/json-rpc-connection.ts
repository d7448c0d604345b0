import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { classifyMessage, ErrorCode, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from "../protocol.ts";
import type { SendOptions, Transport } from "../transport/transport.ts";
import { PendingRequests } from "./pending-requests.ts";
import { replyTo } from "./rpc-reply.ts";

/**
 * The most requests of the server's own (pings, say) we hold at once, from arrival until our reply
 * is sent (written to the pipe, accepted by the HTTP server). A server that sends requests and
 * never takes the replies would otherwise have us keep every one of them (a ping flood grew
 * cat-code to gigabytes).
 */
export const MAX_SERVER_REQUESTS_IN_FLIGHT = 10_000;

/**
 * `signal`: aborting rejects the request at once and forgets its id; a late answer is dropped.
 * `registration` hears the id before the request is sent, for `cancel` (an object, not a
 * callback: no closure per request on the hot path).
 */
export type RequestOptions = SendOptions & {
  registration?: { registered(id: number): void };
  /**
   * The caller's signal of the call this request is sent for: a server request that arrives on
   * this request's own exchange (an HTTP response stream) is handed it as `ServerRequestContext.call`.
   */
  call?: AbortSignal;
};

/** What a handler of the server's request is given beside the request. */
export interface ServerRequestContext {
  /**
   * Aborts when the server gives the request up (`notifications/cancelled` naming its id) or the
   * connection ends: the work behind it (a form in front of the user, a call) should stop.
   */
  readonly signal: AbortSignal;
  /**
   * The call this request came during, when the transport could tell (it came on the exchange of
   * our request sent with `RequestOptions.call`); absent over stdio, where nothing says.
   */
  readonly call?: AbortSignal;
}

/**
 * Answers a request the server sent us; throw an `McpError` to answer with a JSON-RPC error. A
 * request the server cancelled is still answered with what the handler returns or throws: MCP says
 * the receiver SHOULD NOT, but its canceller drops a late answer as it drops one that crossed the
 * notification, and a request is then never left unanswered.
 */
export type ServerRequestHandler = (request: JsonRpcRequest, context: ServerRequestContext) => Promise<unknown> | unknown;

/**
 * One JSON-RPC conversation over a `Transport`: the one place that allocates ids, matches answers
 * to requests, answers the server's requests (aborting a handler's signal when the server gives its
 * request up), passes its notifications on, and tells it of requests given up. It knows no MCP
 * beyond the two rules JSON-RPC leaves to the protocol: `initialize` is never cancelled, and a
 * server request is never left unanswered.
 */
export class JsonRpcConnection {
  onRequest?: ServerRequestHandler;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Called once when the transport ends by itself (not after `close()`); every pending request has failed with `error`. */
  onClose?: (error: Error) => void;
  /** Hears an answer to an id no longer pending (a request given up) or to none (id null), after the debug line: it may still be news. */
  onStrayAnswer?: (response: JsonRpcResponse) => void;
  /**
   * Whether a request given up (timeout, Ctrl-C) is followed by `notifications/cancelled`. A
   * revision where closing the request's stream is the cancellation turns this off.
   */
  sendsCancellation = true;

  private readonly pending = new PendingRequests((id, method, reason) => this.abandoned(id, method, reason));
  /** Why the connection ended; every later request fails with it. */
  private ended: Error | undefined;
  private closing = false;
  private serverRequestsInFlight = 0;
  /**
   * The server's requests being answered, each with its handler's context. Bounded as they are
   * (MAX_SERVER_REQUESTS_IN_FLIGHT): an entry goes once its answer is sent.
   */
  private readonly answering = new Map<RequestId, AnsweringContext>();

  constructor(readonly transport: Transport) {
    transport.onMessage = (value, carrier) => this.receive(value, carrier);
    transport.onClose = (error) => this.end(error);
  }

  /** Resolves to the `result`, or rejects with an `McpError` (JSON-RPC error, failed exchange, closed connection). */
  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const { id, answer } = this.pending.register(method, options.signal, options.call);
    if (options.signal?.aborted) return answer;
    options.registration?.registered(id);
    // Registered before the send: the answer cannot overtake its waiter.
    this.transport
      .send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }, options)
      .catch((error: Error) => this.pending.fail(id, error));
    return answer;
  }

  async notify(method: string, params?: unknown, options?: SendOptions): Promise<void> {
    if (this.ended) throw this.ended;
    await this.transport.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }, options);
  }

  /**
   * Gives the pending request `id` up, as an abort of its signal would: it rejects with `reason`,
   * and the server is told. For a timer of the caller's own, without a signal per request.
   */
  cancel(id: number, reason: Error): void {
    this.pending.abandon(id, reason);
  }

  /** Fails every pending request and ends the transport. Safe to call twice. */
  close(): Promise<void> {
    this.closing = true;
    this.end(McpError.closed("the connection was closed"));
    return this.transport.close();
  }

  /** Requests sent and not yet answered (for tests and debugging). */
  get pendingCount(): number {
    return this.pending.size;
  }

  private receive(value: unknown, carrier?: RequestId): void {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case "response": {
        const { message } = classified;
        if (this.pending.settle(message)) return;
        // An error with id null answers a message the peer could not read (JSON-RPC's parse error or
        // invalid request): it names no request, so none fails; its owner may read more into it.
        const what = message.id === null && "error" in message ? `an error for no request (${message.error.message})` : `an answer to unknown id ${JSON.stringify(message.id)}`;
        log.debug(`${this.transport.description}: dropped ${what}`);
        this.onStrayAnswer?.(message);
        return;
      }
      case "request":
        void this.answer(classified.message, carrier === undefined ? undefined : this.pending.callOf(carrier));
        return;
      case "notification":
        if (classified.message.method === "notifications/cancelled") this.cancelled(classified.message.params);
        // Passed on all the same: its owner may log it.
        deliverNotification(this.onNotification, classified.message);
        return;
      case "invalid":
        log.debug(`${this.transport.description}: skipped a message that is not JSON-RPC (${classified.reason}): ${JSON.stringify(value)?.slice(0, 200)}`);
    }
  }

  private async answer(request: JsonRpcRequest, call: AbortSignal | undefined): Promise<void> {
    if (this.ended) return;
    if (this.serverRequestsInFlight >= MAX_SERVER_REQUESTS_IN_FLIGHT) {
      this.end(
        McpError.closed(`the server sent more than ${MAX_SERVER_REQUESTS_IN_FLIGHT} requests without reading the replies; the connection was closed`),
      );
      void this.transport.close();
      return;
    }
    this.serverRequestsInFlight++;
    const context = new AnsweringContext(call);
    this.answering.set(request.id, context);
    try {
      // Settles once the reply is sent: until then, it counts against the server.
      await this.transport.send(await replyToServerRequest(this.onRequest, request, context));
    } catch (error) {
      log.debug(`${this.transport.description}: could not answer ${request.method}: ${(error as Error).message}`);
    } finally {
      this.serverRequestsInFlight--;
      // A later request that reused the id has an entry of its own.
      if (this.answering.get(request.id) === context) this.answering.delete(request.id);
    }
  }

  /** The server's `notifications/cancelled`: the request it names, if we are still answering it, is given up; another id is ignored. */
  private cancelled(params: unknown): void {
    const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    this.answering.get(requestId)?.abort(new McpError(ErrorCode.RequestCancelled, "the server cancelled its request"));
  }

  /** A request given up by its caller (timeout, Ctrl-C) while pending: tell the server. */
  private abandoned(id: number, method: string, reason: string): void {
    // The initialize request is never cancelled (the spec forbids it); the connection fails instead.
    if (!this.sendsCancellation || method === "initialize" || this.ended) return;
    this.notify("notifications/cancelled", { requestId: id, reason }).catch((error: Error) =>
      log.debug(`${this.transport.description}: could not cancel ${method}: ${error.message}`),
    );
  }

  private end(error: Error): void {
    if (this.ended) return;
    this.ended = error;
    this.pending.failAll(error);
    for (const context of this.answering.values()) context.abort(error);
    this.answering.clear();
    if (!this.closing) this.onClose?.(error);
  }
}

/**
 * The context of one server request being answered. Its signal is made the first time it is asked
 * for: a ping's handler never asks, and an AbortController per ping would cost a flood of them
 * several times the time the rest of the answer takes.
 */
class AnsweringContext implements ServerRequestContext {
  private controller: AbortController | undefined;

  constructor(readonly call: AbortSignal | undefined) {}

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  abort(reason: Error): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
}

/**
 * The response to a request the server sent us: the handler's result, or the error it threw as a
 * JSON-RPC error with its code and data (-32601 when there is no handler). A server's request is never left unanswered.
 */
function replyToServerRequest(handler: ServerRequestHandler | undefined, request: JsonRpcRequest, context: ServerRequestContext): Promise<JsonRpcResponse> {
  return replyTo(
    request.id,
    (async () => {
      if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      return handler(request, context);
    })(),
  );
}

/** Passes a server notification up; a failing handler is logged, never allowed to break the reader. */
function deliverNotification(handler: ((notification: JsonRpcNotification) => void) | undefined, notification: JsonRpcNotification): void {
  try {
    handler?.(notification);
  } catch (error) {
    log.debug(`notification handler failed on ${notification.method}: ${(error as Error).message}`);
  }
}
