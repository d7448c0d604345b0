import type { ServerAuthorizer } from "../auth/server-authorizer.ts";
import { McpError } from "../mcp-error.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../protocol.ts";
import { isAnswerTo, nullIdError } from "./answer-to.ts";
import { readUntilAnswered } from "./event-stream-reader.ts";
import { readJsonAnswer } from "./http-json-answer.ts";
import { HttpSession, isEventStream } from "./http-session.ts";
import { MAX_MESSAGE_CHARS } from "./message-size-limit.ts";
import { NotificationStream, type NotificationStreamState } from "./notification-stream.ts";
import { forEachMessage, type SendOptions, type Transport } from "./transport.ts";

export interface HttpServerParams {
  url: string;
  headers: Record<string, string>;
  /** OAuth for this server: its token on every request, and a say on every 401 and 403. */
  authorizer?: ServerAuthorizer;
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
 * An MCP server behind one Streamable HTTP endpoint (spec 2025-11-25, and 2026-07-28 once the
 * client sets that version: see `setProtocolVersion`). Each message is a POST; a
 * request is answered with JSON or with an SSE stream that may carry the server's own requests and
 * notifications before the response. It moves messages only: every message from the server goes
 * to `onMessage`, and it looks into one only to know whether it is the response that ends a
 * request's exchange. The session, resumption and errors live in helpers.
 *
 * A request that meets 404 with the session it carried fails with `McpError.sessionExpired`, and
 * the session is forgotten: starting a new one is a handshake, which is the client's to do.
 *
 * Messages that belong to no request (`notifications/tools/list_changed`, a server's request) come
 * on the optional standalone GET stream, opened when the client asks with `openNotificationStream()`
 * after each handshake.
 */
export class HttpTransport implements Transport {
  onMessage?: (value: unknown, carrier?: RequestId) => void;
  /**
   * Called once: by `close()`, or when the server went away (its standalone GET stream dropped and
   * the server could not be reached to open it again). Otherwise HTTP has no connection that ends.
   */
  onClose?: (error: Error) => void;
  readonly description: string;
  readonly kind = "http" as const;

  private readonly session: HttpSession;
  private closing: Promise<void> | undefined;
  private readonly options: Required<HttpTransportOptions>;
  private readonly notifications: NotificationStream;
  /** See `setIdle`: while true, no standalone GET stream is open. */
  private idle = false;

  constructor(
    private readonly params: HttpServerParams,
    options: HttpTransportOptions = {},
  ) {
    this.session = new HttpSession(params.url, params.headers, params.authorizer);
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
      (value) => forEachMessage(value, this.onMessage),
      {
        defaultRetryMs: this.options.defaultRetryMs,
        maxFailures: this.options.maxNotificationStreamFailures,
        maxMessageChars: this.options.maxMessageChars,
        eventIdleTimeoutMs: this.options.eventIdleTimeoutMs,
        onServerGone: (error) => {
          if (!this.closing) this.onClose?.(error);
        },
      },
      this.description,
    );
  }

  credentials(): string[] {
    return this.session.credentials();
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

  /** A request settles when its exchange is over; a notification or a reply once the server accepted it. */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.closing) throw McpError.closed("the connection was closed");
    if ("method" in message && "id" in message) return this.exchange(message, options);
    return this.sendOneWay(message, options);
  }

  /** The session the server gave in its answer to `initialize`, if it keeps sessions. */
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  /**
   * The version to send in `MCP-Protocol-Version`; undefined sends none (before a handshake). The
   * modern version (2026-07-28) switches to its way of moving messages: no session, `Mcp-Method`
   * and `Mcp-Name` headers, no GET stream, no resumption of a broken response stream.
   */
  setProtocolVersion(version: string | undefined): void {
    this.session.protocolVersion = version;
  }

  /**
   * Opens the standalone GET stream in the background, for server messages that belong to no
   * request; after a renewed session, re-opens it there. Never fails and never blocks: a server
   * that offers none (405) is simply not asked again.
   */
  openNotificationStream(): void {
    // The modern revision has no standalone stream: change notifications come through `subscriptions/listen`.
    if (this.closing || this.session.modern) return;
    // Idle (a session renewed meanwhile): opened on the new session once in use again.
    if (this.idle) return this.notifications.pause(true);
    if (this.notifications.state === "off") this.notifications.open();
    else this.notifications.renew();
  }

  /**
   * Idle: the standalone GET stream is closed, so nothing of ours holds the server's connections
   * (a server closing gracefully waits for open streams); what it sends meanwhile that belongs to
   * no request is lost, which the holder knows (the keeper lists the tools again before the next
   * command). In use again: the stream is opened again, afresh, if it was open before.
   */
  setIdle(idle: boolean): void {
    if (this.idle === idle || this.closing) return;
    this.idle = idle;
    if (idle) this.notifications.pause();
    else this.notifications.resume();
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
    this.onClose?.(McpError.closed("the connection was closed"));
    this.notifications.close();
    await this.session.terminate(this.options.closeTimeoutMs);
  }

  /** POSTs a request and reads its answer: one JSON message, or a stream that ends with it. */
  private async exchange(message: JsonRpcRequest, options: SendOptions): Promise<void> {
    const url = this.session.shownUrl;
    const signal = options.signal ? AbortSignal.any([options.signal, this.session.closeSignal]) : this.session.closeSignal;
    const response = await this.post(message, signal, options.headers, options.onAuthorizing);
    if (!response.ok) throw await this.session.statusError(response);
    // An error with a null id on this request's own stream can only be this request's.
    let failure: McpError | undefined;
    const receive = (value: unknown): boolean => {
      let ended = false;
      forEachMessage(value, (item) => {
        const error = nullIdError(item);
        if (error) {
          failure ??= McpError.fromJsonRpc(error);
          ended = true;
          return;
        }
        if (isAnswerTo(item, message.id)) ended = true;
        this.onMessage?.(item, message.id);
      });
      return ended;
    };
    if (isEventStream(response)) {
      await readUntilAnswered(response, {
        url,
        method: message.method,
        signal,
        onMessage: receive,
        resume: this.session.modern ? undefined : (lastEventId) => this.session.resume(lastEventId, signal),
        defaultRetryMs: this.options.defaultRetryMs,
        maxResumeAttempts: this.options.maxResumeAttempts,
        maxMessageChars: this.options.maxMessageChars,
      });
      if (failure) throw failure;
      return;
    }
    const value = await readJsonAnswer(response, { maxChars: this.options.maxMessageChars, shownUrl: url, method: message.method });
    const answered = receive(value);
    if (failure) throw failure;
    if (!answered) throw new McpError(undefined, `the server at ${url} answered ${message.method} without a response to it`, { status: response.status, url });
  }

  /**
   * POSTs a message. A 404 to a message that carried a session means the session expired: the
   * message fails with an error the client knows to renew on. A request's 404 also forgets the
   * session (the client renews on that request's failure); a notification's leaves it for the
   * next request to meet, so the client hears of the expiry.
   */
  private async post(message: JsonRpcMessage, signal: AbortSignal, headers?: Record<string, string>, onAuthorizing?: (waiting: boolean) => void): Promise<Response> {
    const request = "method" in message && "id" in message;
    const carried = request && message.method === "initialize" ? undefined : this.session.sessionId;
    const response = await this.session.post(message, signal, headers, onAuthorizing);
    if (response.status !== 404 || carried === undefined) return response;
    await response.body?.cancel();
    if (request) this.session.forget(carried);
    throw McpError.sessionExpired(this.session.shownUrl);
  }

  /** A notification or a reply of ours: 202, or 200 with a body that is ignored. */
  private async sendOneWay(message: JsonRpcMessage, options: SendOptions): Promise<void> {
    const what = "method" in message ? message.method : "a response";
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(McpError.timeout(what, this.options.notifyTimeoutMs)), this.options.notifyTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await this.post(message, signal, options.headers);
      if (!response.ok) throw await this.session.statusError(response);
      await response.body?.cancel();
    } finally {
      clearTimeout(timer);
    }
  }
}
