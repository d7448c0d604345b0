import type { Clock, ClockTimer } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";
import type { ProgressListener, ProgressUpdate } from "./progress.ts";

/**
 * How far progress may stretch a request: at most this many times its timeout in all (counted from
 * the first progress on, which came within the first timeout: so at most this many in all). Progress proves
 * the server is alive, not that it will ever finish; a server that reports forever (or a loop that
 * resends the same step with a growing number) must still end, and ten timeouts (5 minutes at the
 * default 30 s) outlast any honest long step while still ending a runaway in bounded time.
 */
export const MAX_PROGRESS_STRETCH = 10;

/**
 * One request's timeout: one timer, which progress resets (`reset`) within the overall bound. When
 * it runs out, the request is given up by its id (`connection.cancel`: the server is told), so a
 * request needs no AbortController of its own: with 256 calls in flight, a controller per request
 * (and the connection's watch of it) cost more than the rest of a call. `signal` is made only when
 * something must wait under the timeout (an HTTP exchange, which holds its send's signal to its
 * end; a session renewal): it aborts when the timer runs out or the caller aborts.
 * Time comes from `clock`.
 */
export class RequestTimeout {
  private controller: AbortController | undefined;
  private timer: ClockTimer | undefined;
  /** When the timer is due: a system timer may fire a little early (whole milliseconds, a cached loop time). */
  private due: number;
  /** The id of the request in flight (each send of it has its own). */
  private id: number | undefined;
  /** When progress may no longer reset the timer; NaN until the first progress (only progress sets it: a request without any never needs it). */
  private hardStop = Number.NaN;
  private timedOut: McpError | undefined;
  private readonly expire = () => this.fire();
  /** Made with the signal: a request without one needs no listener. */
  private callerAborted: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly connection: { cancel(id: number, reason: Error): void },
    private readonly method: string,
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
    /** Hears each send's id as well (the era probe keeps it: its answer may come late). */
    private readonly registration?: { registered(id: number): void },
  ) {
    this.due = clock.now() + timeoutMs;
    this.timer = clock.setTimeout(this.expire, timeoutMs);
  }

  /** Aborts when the timeout runs out (the reason is the timeout's `McpError`) or the caller aborts (its reason). */
  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = (this.controller = new AbortController());
    const caller = this.callerSignal;
    if (this.timedOut) controller.abort(this.timedOut);
    else if (caller?.aborted) controller.abort(caller.reason);
    else if (caller) caller.addEventListener("abort", (this.callerAborted = () => controller.abort(caller.reason)), { once: true });
    return controller.signal;
  }

  /** The connection's id for a send of the request (`registration` of its RequestOptions). */
  registered(id: number): void {
    this.id = id;
    this.registration?.registered(id);
  }

  /** A progress: the request gets its full timeout again, within `MAX_PROGRESS_STRETCH` timeouts. */
  reset(): void {
    if (this.timer === undefined) return;
    const now = this.clock.now();
    if (Number.isNaN(this.hardStop)) this.hardStop = now + this.timeoutMs * (MAX_PROGRESS_STRETCH - 1);
    this.clock.clearTimeout(this.timer);
    const ms = Math.max(0, Math.min(this.timeoutMs, this.hardStop - now));
    this.due = now + ms;
    this.timer = this.clock.setTimeout(this.expire, ms);
  }

  /** The timeout's error when it ran out, else undefined (a caller's abort is not a timeout). */
  expired(): McpError | undefined {
    return this.timedOut;
  }

  /** The request settled: the timer and the caller's listener are let go. Safe to call twice. */
  end(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.id = undefined;
    if (this.callerAborted) this.callerSignal!.removeEventListener("abort", this.callerAborted);
  }

  private fire(): void {
    // Never early (a caller may compare the time spent with the timeout: openEra does), and at
    // most a millisecond late: what is left is waited for again, a millisecond at least.
    const early = this.due - this.clock.now();
    if (early > 0) {
      this.timer = this.clock.setTimeout(this.expire, Math.max(1, early));
      return;
    }
    this.timer = undefined;
    const stretched = this.clock.now() >= this.hardStop;
    this.timedOut = stretched
      ? new McpError(
          McpError.timeout(this.method, this.timeoutMs).code,
          `${this.method} timed out: it kept reporting progress, but a call may run at most ${this.timeoutMs * MAX_PROGRESS_STRETCH} ms (${MAX_PROGRESS_STRETCH}× its ${this.timeoutMs} ms timeout)`,
        )
      : McpError.timeout(this.method, this.timeoutMs);
    this.controller?.abort(this.timedOut);
    if (this.id !== undefined) this.connection.cancel(this.id, this.timedOut);
  }
}

/**
 * A call whose progress resets its timeout (tools/call): the caller hears each update, and the
 * request in flight gets its timeout again. One serves every round of an MRTR call: each round is
 * a request of its own, with a fresh timeout.
 */
export class CallProgress implements ProgressListener {
  /** The timeout of the round in flight (set by the request that sends it). */
  timeout: RequestTimeout | undefined;

  constructor(private readonly onProgress: ((update: ProgressUpdate) => void) | undefined) {}

  progressed(update: ProgressUpdate): void {
    this.timeout?.reset();
    this.onProgress?.(update);
  }
}
