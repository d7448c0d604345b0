import type { Clock, ClockTimer } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";

/**
 * The era probe's window: how long a server may stay silent on `server/discover` before it is taken
 * for a legacy one (era-detection.ts). It stands still while the transport waits on OAuth for the
 * probe (a token read under the credentials lock, a refresh, a refresh after a 401, a sign-in):
 * that time is ours, not the server's silence, and a refresh slower than the window would make a
 * dual-era server look silent and be remembered as legacy for a day. The connect's own timeout
 * still bounds it all. Time comes from `clock`.
 */
export class ProbeWindow {
  private readonly controller = new AbortController();
  private timer: ClockTimer | undefined;
  private left: number;
  private runningSince = 0;
  private waits = 0;
  private ended = false;

  constructor(
    private readonly clock: Clock,
    private readonly method: string,
    private readonly ms: number,
  ) {
    this.left = ms;
    this.run();
  }

  /** Aborts, with the method's timeout as its reason, once the server's share of the window is spent. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** For `SendOptions.onAuthorizing`: the window stops while any OAuth step of the probe waits. */
  readonly authorizing = (waiting: boolean): void => {
    if (this.ended || this.controller.signal.aborted) return;
    if (waiting) {
      if (this.waits++ === 0) this.stop();
    } else if (this.waits > 0 && --this.waits === 0) {
      this.run();
    }
  };

  /** The timeout error when the window ran out, else undefined. */
  expired(): McpError | undefined {
    return this.controller.signal.aborted ? (this.controller.signal.reason as McpError) : undefined;
  }

  /** The probe settled: the timer is let go. */
  end(): void {
    this.ended = true;
    this.stop();
  }

  private run(): void {
    this.runningSince = this.clock.now();
    this.timer = this.clock.setTimeout(() => this.controller.abort(McpError.timeout(this.method, this.ms)), this.left);
  }

  private stop(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.left = Math.max(0, this.left - (this.clock.now() - this.runningSince));
  }
}
