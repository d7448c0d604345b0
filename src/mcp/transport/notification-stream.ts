import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { sleep } from "../../system/timers.ts";
import { readStream, type StreamOutcome, type StreamPosition } from "./event-stream-reader.ts";
import { isEventStream, mediaType, type HttpSession } from "./http-session.ts";

/** Where the standalone GET stream stands; tests and debugging read it, nothing depends on it. */
export type NotificationStreamState =
  /** Never asked for. */
  | "off"
  | "connecting"
  | "open"
  /** Between two connections: waiting the server's `retry` or a backoff. */
  | "waiting"
  /** The server offers no stream (405, 400, 404 without a session, not an event stream): never retried. */
  | "unsupported"
  /** A 404 on the session (or a renewal under way): the next request renews the session, which re-opens the stream. */
  | "expired"
  /** Too many failures in a row; re-opened only with a new session. */
  | "given-up"
  /** Closed while nobody uses the connection (the keeper's idle connections); `resume` opens it afresh. */
  | "paused"
  | "closed";

export interface NotificationStreamOptions {
  /** The wait before reconnecting when the server gave no `retry`; doubles with each failure in a row. */
  defaultRetryMs: number;
  /** Failed connections in a row (errors, bad statuses, streams that end with nothing) before giving up. */
  maxFailures: number;
  /** The largest event held, in characters: a larger one gives the stream up. */
  maxMessageChars: number;
  /** How long an event may stay unfinished with no byte arriving before the connection is dropped. */
  eventIdleTimeoutMs: number;
  /**
   * Hears that the server went away: the stream was open, dropped, and the server could not be
   * reached at all when it was opened again. The stream gives up; the transport ends on it.
   */
  onServerGone?: (error: McpError) => void;
}

/** The backoff never grows past this, unless the server's own `retry` asks for more. */
const MAX_BACKOFF_MS = 30_000;
/** A stream that stayed open this long was working, even if it brought nothing (a quiet server, a proxy's idle cut). */
const HEALTHY_STREAM_MS = 10_000;

/**
 * The optional standalone `GET` SSE stream of a Streamable HTTP session: where a server sends what
 * belongs to no request of ours (`notifications/tools/list_changed`, a ping). It lives beside the
 * requests and never touches them: it cannot fail a request or the connection, it only logs at
 * debug level. When it drops it reconnects after the server's `retry` with `Last-Event-ID`; a
 * server that offers none is asked once.
 */
export class NotificationStream {
  private _state: NotificationStreamState = "off";
  /** Stops the current run (one at a time); a renewal replaces it. */
  private current: AbortController | undefined;

  constructor(
    private readonly session: HttpSession,
    /** One JSON-RPC message (or batch) from the stream. */
    private readonly onMessage: (value: unknown) => void,
    private readonly options: NotificationStreamOptions,
    private readonly description: string,
  ) {}

  get state(): NotificationStreamState {
    return this._state;
  }

  /** Starts listening in the background, unless it already does or the server offers no stream. */
  open(): void {
    if (this.current || this._state === "unsupported" || this._state === "closed") return;
    const controller = new AbortController();
    this.current = controller;
    const signal = AbortSignal.any([controller.signal, this.session.closeSignal]);
    this.run(signal)
      .catch((error: unknown) => {
        if (!signal.aborted) log.debug(`${this.description}: the notification stream failed: ${(error as Error).message}`);
      })
      .finally(() => {
        if (this.current === controller) this.current = undefined;
      });
  }

  /** The session was replaced: listen on the new one from the start, if listening was wanted. */
  renew(): void {
    if (this._state === "off" || this._state === "unsupported" || this._state === "closed") return;
    this.current?.abort();
    this.current = undefined;
    this.open();
  }

  /**
   * Closes the stream until `resume`. A stream that was never asked for, or that the server does not
   * offer, stays so; `asked` (a handshake while idle, the first or a renewal) pauses even one that
   * was off, expired or had given up, to be opened on the new session.
   */
  pause(asked = false): void {
    const { state } = this;
    if (state === "unsupported" || state === "closed") return;
    if (!asked && state !== "connecting" && state !== "open" && state !== "waiting") return;
    this.current?.abort();
    this.current = undefined;
    this._state = "paused";
  }

  /** Opens a paused stream again, from the start (what the server sent meanwhile is not asked for). */
  resume(): void {
    if (this._state === "paused") this.open();
  }

  close(): void {
    this._state = "closed";
    this.current?.abort();
    this.current = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    // An aborted run (closed, or replaced by a renewal) must not overwrite the state of what follows.
    const set = (state: NotificationStreamState) => {
      if (!signal.aborted) this._state = state;
    };
    const stop = (state: NotificationStreamState, why: string) => {
      set(state);
      log.debug(`${this.description}: no notification stream: ${why}`);
    };
    const sessionId = this.session.sessionId;
    let position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    let failures = 0;
    let lastFailure = "";
    let wasOpen = false;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        if (failures >= this.options.maxFailures) {
          return stop("given-up", `${failures} failed attempts in a row (${lastFailure})`);
        }
        set("waiting");
        if (!(await sleep(this.delay(position.retryMs, failures), signal))) throw signal.reason;
      }
      // The session is being renewed (or was): the renewal re-opens the stream on the new one.
      if (this.session.sessionId !== sessionId) return stop("expired", "the session changed");
      set("connecting");
      let response: Response;
      try {
        response = await this.session.listen(position.lastEventId, signal);
      } catch (error) {
        signal.throwIfAborted();
        if (wasOpen && error instanceof McpError && error.kind === "unreachable") {
          stop("given-up", `the server went away: ${error.message}`);
          this.options.onServerGone?.(error);
          return;
        }
        failures++;
        lastFailure = (error as Error).message;
        continue;
      }
      if (!response.ok || !isEventStream(response) || !response.body) {
        await response.body?.cancel().catch(() => {});
        signal.throwIfAborted();
        const { status } = response;
        if (status === 405 || status === 400) return stop("unsupported", `the server answered GET with ${status}`);
        if (status === 404) {
          // With a session, 404 means it expired: renewing is the next request's job, not a loop's here.
          return sessionId === undefined ? stop("unsupported", "the server answered GET with 404") : stop("expired", "the session expired (404)");
        }
        if (response.ok && !isEventStream(response)) {
          return stop("unsupported", `the server answered GET with ${mediaType(response) || "no content type"}, not an event stream`);
        }
        failures++;
        lastFailure = response.ok ? "an empty answer" : `answered ${status}`;
        continue;
      }
      set("open");
      wasOpen = true;
      const started = performance.now();
      let outcome: StreamOutcome;
      try {
        outcome = await readStream(response.body, position, {
          url: this.session.shownUrl,
          method: "the standalone GET",
          signal,
          onMessage: (value) => {
            this.onMessage(value);
            return false;
          },
          maxMessageChars: this.options.maxMessageChars,
          eventIdleTimeoutMs: this.options.eventIdleTimeoutMs,
        });
      } catch (error) {
        // An event over the size limit: a server that sends one would only send it again.
        signal.throwIfAborted();
        if (!(error instanceof McpError)) throw error;
        set("given-up");
        log.warn(`${this.description}: server notifications are no longer received: ${error.message}`);
        return;
      }
      const moved = outcome.progressed || outcome.lastEventId !== position.lastEventId;
      position = { lastEventId: outcome.lastEventId, retryMs: outcome.retryMs };
      if (outcome.stalled) {
        // Half an event and then silence: drop it and resume, but a server that keeps doing it is failing.
        failures++;
        lastFailure = `an event stayed unfinished for ${this.options.eventIdleTimeoutMs} ms`;
      } else if (moved || performance.now() - started >= HEALTHY_STREAM_MS) {
        failures = 0;
      } else {
        failures++;
        lastFailure = "the stream ended with nothing on it";
      }
      log.debug(`${this.description}: the notification stream ended; reconnecting`);
    }
  }

  /** The server's `retry` (or the default), doubled for each failure in a row beyond the first, capped. */
  private delay(retryMs: number | undefined, failures: number): number {
    const base = retryMs ?? this.options.defaultRetryMs;
    if (failures <= 1) return base;
    return Math.max(base, Math.min(base * 2 ** (failures - 1), MAX_BACKOFF_MS));
  }
}
