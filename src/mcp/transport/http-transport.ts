import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { classifyMessage, type ClassifiedMessage, type JsonRpcNotification, type JsonRpcRequest, type RequestId } from "../protocol.ts";
import { readUntilAnswered } from "./event-stream-reader.ts";
import { httpStatusError } from "./http-errors.ts";
import { readJsonAnswer } from "./http-json-answer.ts";
import { HttpSession, isEventStream, type OutgoingMessage } from "./http-session.ts";
import { MAX_MESSAGE_CHARS } from "./message-size-limit.ts";
import { NotificationStream, type NotificationStreamState } from "./notification-stream.ts";
import { PendingRequests } from "./pending-requests.ts";
import { deliverNotification, replyToServerRequest, type RequestOptions, type ServerRequestHandler, type Transport } from "./transport.ts";

export interface HttpServerParams {
  url: string;
  headers: Record<string, string>;
}

export interface HttpTransportOptions {
  /** How long `close()` waits for the session's `DELETE`. */
  closeTimeoutMs?: number;
  /** The wait before resuming a dropped stream when the server gave no `retry`. */
  defaultRetryMs?: number;
  /** Resumptions in a row that may bring nothing before a request fails. */
  maxResumeAttempts?: number;
  /** A notification has no answer for the client to time out on; this bounds its POST. */
  notifyTimeoutMs?: number;
  /** Failed connections in a row after which the standalone GET stream is given up. */
  maxNotificationStreamFailures?: number;
  /** The largest message held, in characters: a JSON answer or one SSE event (default: stdio's, 256 MB). */
  maxMessageChars?: number;
  /** How long an event on the standalone GET stream may stay unfinished with no byte arriving. */
  eventIdleTimeoutMs?: number;
}

/**
 * An MCP server behind one Streamable HTTP endpoint (spec 2025-11-25). Each message is a POST; a
 * request is answered with JSON or with an SSE stream that may carry the server's own requests and
 * notifications before the response. The session, resumption and errors live in helpers; this
 * class correlates answers and keeps the session alive across an expiry.
 *
 * Messages that belong to a request come on that request's own stream. What belongs to none
 * (`notifications/tools/list_changed`) comes on the optional standalone GET stream, which is opened
 * only when the client asks for it with `openNotificationStream()`. The client asks because only it
 * reads the server's capabilities: the transport relays the `initialize` result without looking
 * into it, and a server that declares no `listChanged` would only hold a connection open for nothing.
 * Once asked, the transport re-opens the stream by itself on a renewed session, which the client
 * never sees.
 */
export class HttpTransport implements Transport {
  onServerRequest?: ServerRequestHandler;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** HTTP has no connection that ends by itself, so this is never called; each request fails on its own. */
  onClose?: (error: Error) => void;
  readonly description: string;

  private readonly session: HttpSession;
  private readonly pending = new PendingRequests((id, method, reason) => this.abandon(id, method, reason));
  /** Per in-flight request: aborting stops its fetch, its stream and its waits. */
  private readonly inFlight = new Map<number, AbortController>();
  /** What the client sent in `initialize`, to start a new session the same way when one expires. */
  private initializeParams: unknown;
  private renewal: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly options: Required<HttpTransportOptions>;
  private readonly notifications: NotificationStream;

  constructor(
    private readonly params: HttpServerParams,
    options: HttpTransportOptions = {},
  ) {
    this.session = new HttpSession(params.url, params.headers);
    // The url may carry a secret in its userinfo or query: it is only ever shown redacted.
    this.description = `http: ${this.session.shownUrl}`;
    this.options = {
      closeTimeoutMs: options.closeTimeoutMs ?? 1000,
      defaultRetryMs: options.defaultRetryMs ?? 1000,
      maxResumeAttempts: options.maxResumeAttempts ?? 3,
      notifyTimeoutMs: options.notifyTimeoutMs ?? 30_000,
      maxNotificationStreamFailures: options.maxNotificationStreamFailures ?? 3,
      maxMessageChars: options.maxMessageChars ?? MAX_MESSAGE_CHARS,
      eventIdleTimeoutMs: options.eventIdleTimeoutMs ?? 60_000,
    };
    this.notifications = new NotificationStream(
      this.session,
      (value) => this.receiveUnsolicited(value),
      {
        defaultRetryMs: this.options.defaultRetryMs,
        maxFailures: this.options.maxNotificationStreamFailures,
        maxMessageChars: this.options.maxMessageChars,
        eventIdleTimeoutMs: this.options.eventIdleTimeoutMs,
      },
      this.description,
    );
  }

  /** Nothing to open: HTTP connects per message. Only checks what would make every message fail. */
  async start(): Promise<void> {
    // Not echoed: text that is no URL cannot be redacted, and may be a secret.
    const protocol = URL.canParse(this.params.url) ? new URL(this.params.url).protocol : undefined;
    if (protocol !== "http:" && protocol !== "https:") throw new McpError(undefined, "invalid url in the entry: expected an absolute http:// or https:// URL");
    for (const name of Object.keys(this.params.headers)) {
      try {
        new Headers({ [name]: this.params.headers[name]! });
      } catch {
        // The value may be a secret: name the header only.
        throw new McpError(undefined, `invalid header '${name}' in the entry for ${this.session.shownUrl}: bad name or value`);
      }
    }
  }

  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closing) return Promise.reject(McpError.closed("the connection was closed"));
    if (method === "initialize") this.initializeParams = params;
    const { id, answer } = this.pending.register(method, options.signal);
    if (options.signal?.aborted) return answer;
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    const signal = AbortSignal.any([controller.signal, this.session.closeSignal]);
    this.exchange(id, { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }, signal)
      .catch((error: Error) => this.pending.fail(id, error))
      .finally(() => this.inFlight.delete(id));
    return answer;
  }

  async notify(method: string, params?: unknown): Promise<void> {
    if (this.closing) throw McpError.closed("the connection was closed");
    await this.sendOneWay({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** The session the server gave in its answer to `initialize`, if it keeps sessions. */
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.session.protocolVersion = version;
  }

  /**
   * Opens the standalone GET stream in the background, for server messages that belong to no
   * request. Never fails and never blocks: a server that offers none (405) is simply not asked again.
   */
  openNotificationStream(): void {
    if (!this.closing) this.notifications.open();
  }

  /** Where the standalone GET stream stands (for tests and debugging). */
  get notificationStreamState(): NotificationStreamState {
    return this.notifications.state;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.pending.failAll(McpError.closed("the connection was closed"));
    this.notifications.close();
    await this.session.terminate(this.options.closeTimeoutMs);
  }

  /** POSTs a request and reads its answer: one JSON message, or a stream that ends with it. */
  private async exchange(id: number, message: OutgoingMessage & { method: string }, signal: AbortSignal): Promise<void> {
    const url = this.session.shownUrl;
    const response = await this.post(message, signal);
    if (!response.ok) throw await httpStatusError(url, response);
    if (isEventStream(response)) {
      return readUntilAnswered(response, {
        url,
        method: message.method,
        signal,
        onMessage: (value) => this.receive(value, id),
        resume: (lastEventId) => this.session.resume(lastEventId, signal),
        defaultRetryMs: this.options.defaultRetryMs,
        maxResumeAttempts: this.options.maxResumeAttempts,
        maxMessageChars: this.options.maxMessageChars,
      });
    }
    const value = await readJsonAnswer(response, { maxChars: this.options.maxMessageChars, shownUrl: url, method: message.method });
    const answered = (Array.isArray(value) ? value : [value]).map((item) => this.receive(item, id)).includes(true);
    if (!answered) throw new McpError(undefined, `the server at ${url} answered ${message.method} without a response to it`, { status: response.status, url });
  }

  /**
   * POSTs a message; when the session it carried has expired (404), starts a new one without
   * telling the caller and sends the message once more. A second 404 is an error.
   */
  private async post(message: OutgoingMessage, signal: AbortSignal): Promise<Response> {
    const carried = message.method === "initialize" ? undefined : this.session.sessionId;
    const response = await this.session.post(message, signal);
    if (response.status !== 404 || carried === undefined) return response;
    await response.body?.cancel();
    await this.renewSession(carried, signal);
    const retried = await this.session.post(message, signal);
    if (retried.status !== 404) return retried;
    await retried.body?.cancel();
    throw McpError.closed(`the server at ${this.session.shownUrl} expired the session, then refused the new one too (404 twice)`);
  }

  /** One renewal at a time: requests that hit the same expiry all wait for it, then retry. */
  private renewSession(expired: string, signal: AbortSignal): Promise<void> {
    if (this.renewal) return this.renewal;
    if (this.session.sessionId !== expired) return Promise.resolve();
    this.renewal = this.startNewSession(signal).finally(() => (this.renewal = undefined));
    return this.renewal;
  }

  private async startNewSession(signal: AbortSignal): Promise<void> {
    log.debug(`${this.description}: the session expired; starting a new one`);
    this.session.forget();
    if (this.initializeParams === undefined) throw McpError.closed(`the server at ${this.session.shownUrl} expired a session that was never initialized`);
    const result = await this.request("initialize", this.initializeParams, { signal });
    const version = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === "string" && this.session.protocolVersion !== undefined) this.session.protocolVersion = version;
    // Straight to the session: a 404 here must not start yet another renewal.
    const response = await this.session.post({ jsonrpc: "2.0", method: "notifications/initialized" }, signal);
    await this.expectAccepted(response);
    this.notifications.renew();
  }

  /** A notification or a response of ours: 202, or 200 with a body that is ignored. */
  private async sendOneWay(message: OutgoingMessage): Promise<void> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(McpError.timeout(message.method ?? "a response", this.options.notifyTimeoutMs)), this.options.notifyTimeoutMs);
    try {
      await this.expectAccepted(await this.post(message, deadline.signal));
    } finally {
      clearTimeout(timer);
    }
  }

  private async expectAccepted(response: Response): Promise<void> {
    if (!response.ok) throw await httpStatusError(this.session.shownUrl, response);
    await response.body?.cancel();
  }

  /**
   * Handles one message that arrived on an answer. Returns true when it settled request `awaited`;
   * an error with a null id (the server could not tell which request failed) settles it too.
   */
  private receive(value: unknown, awaited: RequestId): boolean {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case "response": {
        const { id } = classified.message;
        if (id === null && "error" in classified.message) {
          const { code, message, data } = classified.message.error;
          this.pending.fail(awaited, new McpError(code, message, { data }));
          return true;
        }
        const settled = this.pending.settle(classified.message);
        if (!settled) log.debug(`${this.description}: dropped an answer to unknown id ${JSON.stringify(id)}`);
        return String(id) === String(awaited);
      }
      default:
        this.receiveFromServer(classified);
        return false;
    }
  }

  /** A message (or batch) on the standalone GET stream: no request of ours awaits it. */
  private receiveUnsolicited(value: unknown): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      const classified = classifyMessage(item);
      if (classified.kind === "response") {
        log.debug(`${this.description}: ignored a response on the notification stream (id ${JSON.stringify(classified.message.id)})`);
      } else {
        this.receiveFromServer(classified);
      }
    }
  }

  /** What the server says of its own accord, on any stream: its requests are answered, its notifications passed on. */
  private receiveFromServer(classified: Exclude<ClassifiedMessage, { kind: "response" }>): void {
    switch (classified.kind) {
      case "request":
        void this.answerServerRequest(classified.message);
        return;
      case "notification":
        deliverNotification(this.onNotification, classified.message);
        return;
      case "invalid":
        log.debug(`${this.description}: skipped a message that is not JSON-RPC (${classified.reason})`);
        return;
    }
  }

  /** The server asked us something (a ping, say): the answer is POSTed like any message of ours. */
  private async answerServerRequest(request: JsonRpcRequest): Promise<void> {
    const reply = await replyToServerRequest(this.onServerRequest, request);
    if (this.closing) return;
    await this.sendOneWay(reply).catch((error: Error) =>
      log.debug(`${this.description}: could not answer ${request.method}: ${error.message}`),
    );
  }

  /** A request given up by its caller (timeout, Ctrl-C): stop its fetch and tell the server. */
  private abandon(id: number, method: string, reason: string): void {
    this.inFlight.get(id)?.abort(McpError.cancelled(method));
    // The initialize request is never cancelled (the spec forbids it); the connection fails instead.
    if (method === "initialize" || this.closing) return;
    this.notify("notifications/cancelled", { requestId: id, reason }).catch((error: Error) =>
      log.debug(`${this.description}: could not cancel ${method}: ${error.message}`),
    );
  }
}
