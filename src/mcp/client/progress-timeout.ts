import type { Clock, ClockTimer } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";
import type { ProgressListener, ProgressUpdate } from "./progress.ts";
import type { TimeoutGroup, TimeoutGroups } from "./timeout-groups.ts";

/**
 * How far progress may stretch a call: at most this many times its timeout in all (counted from
 * the first progress on, which came within the first timeout: so at most this many in all). Progress proves
 * the server is alive, not that it will ever finish; a server that reports forever (or a loop that
 * resends the same step with a growing number) must still end, and ten timeouts (5 minutes at the
 * default 30 s) outlast any honest long step while still ending a runaway in bounded time.
 */
export const MAX_PROGRESS_STRETCH = 10;

/**
 * The timeout of one tools/call, which each `notifications/progress` for it resets. Without
 * progress it costs what any request costs: it sits in a shared timeout group (TimeoutGroups), one
 * timer for many calls. The first progress moves it out to a deadline of its own (a timer and a
 * signal, the pending request re-watched under it), so only calls that report progress pay for one.
 * An HTTP request holds its send's signal for its whole exchange, so there the call needs its own
 * deadline from the start (`ownFromStart`; HTTP costs far more than a timer anyway).
 * One instance serves every round of an MRTR call: each round `begin`s afresh.
 */
export class ProgressTimeout implements ProgressListener {
  private group: TimeoutGroup | undefined;
  private controller: AbortController | undefined;
  private timer: ClockTimer | undefined;
  private requestId: number | undefined;
  private method = "";
  private timeoutMs = 0;
  private hardStop = 0;
  private callerSignal: AbortSignal | undefined;
  private active = false;
  /** The signal the current round was sent with. */
  signal!: AbortSignal;

  constructor(
    private readonly clock: Clock,
    private readonly groups: TimeoutGroups,
    private readonly connection: { rewatch(id: number, signal: AbortSignal): void },
    private readonly ownFromStart: boolean,
    /** The caller's own listener for the updates. */
    private readonly onProgress: ((update: ProgressUpdate) => void) | undefined,
  ) {}

  /** Starts a round's timeout; returns the signal to send with (the caller's folded in). */
  begin(method: string, timeoutMs: number, callerSignal: AbortSignal | undefined): AbortSignal {
    this.method = method;
    this.timeoutMs = timeoutMs;
    this.callerSignal = callerSignal;
    // Read the clock only when progress comes (a call that reports none never needs it).
    this.hardStop = this.ownFromStart ? this.clock.now() + timeoutMs * MAX_PROGRESS_STRETCH : Number.NaN;
    this.requestId = undefined;
    this.active = true;
    let own: AbortSignal;
    if (this.ownFromStart) own = this.arm(timeoutMs);
    else own = (this.group = this.groups.acquire(method, timeoutMs)).signal;
    this.signal = callerSignal ? AbortSignal.any([callerSignal, own]) : own;
    return this.signal;
  }

  /** The connection's id for the round's request (for re-watching it). */
  registered(id: number): void {
    this.requestId = id;
  }

  /** A progress for this call: the caller hears it, and the round gets its full timeout again. */
  progressed(update: ProgressUpdate): void {
    this.extend();
    this.onProgress?.(update);
  }

  /** The round gets its full timeout again, within the overall bound. */
  private extend(): void {
    if (!this.active) return;
    if (Number.isNaN(this.hardStop)) this.hardStop = this.clock.now() + this.timeoutMs * (MAX_PROGRESS_STRETCH - 1);
    const remaining = Math.min(this.timeoutMs, this.hardStop - this.clock.now());
    if (this.controller) {
      if (this.controller.signal.aborted) return;
      this.clock.clearTimeout(this.timer!);
      this.timer = this.clock.setTimeout(() => this.expire(), remaining);
      return;
    }
    if (this.group?.signal.aborted) return;
    const own = this.arm(remaining);
    this.signal = this.callerSignal ? AbortSignal.any([this.callerSignal, own]) : own;
    if (this.requestId !== undefined) this.connection.rewatch(this.requestId, this.signal);
    this.releaseGroup();
  }

  /** The error for a round whose timeout fired, or undefined when it did not. */
  expired(): McpError | undefined {
    if (this.controller?.signal.aborted) return this.controller.signal.reason as McpError;
    if (this.group?.signal.aborted) return McpError.timeout(this.method, this.timeoutMs);
    return undefined;
  }

  /** The round settled: its timer and group are let go. */
  end(): void {
    this.active = false;
    this.releaseGroup();
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller = undefined;
  }

  private arm(ms: number): AbortSignal {
    this.controller = new AbortController();
    this.timer = this.clock.setTimeout(() => this.expire(), ms);
    return this.controller.signal;
  }

  private expire(): void {
    const stretched = this.clock.now() >= this.hardStop;
    this.controller?.abort(
      stretched
        ? new McpError(
            McpError.timeout(this.method, this.timeoutMs).code,
            `${this.method} timed out: it kept reporting progress, but a call may run at most ${this.timeoutMs * MAX_PROGRESS_STRETCH} ms (${MAX_PROGRESS_STRETCH}× its ${this.timeoutMs} ms timeout)`,
          )
        : McpError.timeout(this.method, this.timeoutMs),
    );
  }

  private releaseGroup(): void {
    if (this.group) this.groups.release(this.group);
    this.group = undefined;
  }
}
