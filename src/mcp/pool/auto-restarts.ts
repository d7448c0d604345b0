import type { Clock, ClockTimer } from "../../system/clock.ts";

/** One automatic restart, one second after the crash. */
export const DEFAULT_RESTART_DELAYS_MS: readonly number[] = [1000];

/** A crash this long after the last restart (from when it ran, not when it was scheduled) is a new one, not the same crash coming back: the count starts again. */
export const STABLE_AFTER_MS = 10 * 60_000;

/**
 * The automatic restarts of servers that crashed: the n-th restart of a server waits `delaysMs[n]`
 * (a backoff when the list grows), and past the end of the list there is none: a server that keeps
 * crashing stays FAILED until the user restarts it (`/mcp reconnect`), which starts the count again.
 * Only crashes close together count: one that ran STABLE_AFTER_MS since its last restart gets the
 * whole list again (a session or an `mcp serve` that runs for days outlives more than one crash).
 */
export class AutoRestarts {
  private readonly timers = new Map<string, ClockTimer>();
  /** Per server: restarts in its current run of crashes, and when the last one runs (or ran). */
  private readonly used = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly delaysMs: readonly number[] = DEFAULT_RESTART_DELAYS_MS,
  ) {}

  /** Schedules the next restart of `name`: the delay it waits, or undefined when it had all of its restarts. */
  schedule(name: string, restart: () => void): number | undefined {
    const now = this.clock.now();
    const last = this.used.get(name);
    const count = last && now - last.at < STABLE_AFTER_MS ? last.count : 0;
    const delayMs = this.delaysMs[count];
    if (delayMs === undefined) return undefined;
    this.used.set(name, { count: count + 1, at: now + delayMs });
    this.cancel(name);
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(name);
      restart();
    }, delayMs);
    // A restart is no reason to keep a finished run alive.
    timer.unref();
    this.timers.set(name, timer);
    return delayMs;
  }

  /** The user restarted it: a pending automatic restart is dropped, and the count starts again. */
  reset(name: string): void {
    this.cancel(name);
    this.used.delete(name);
  }

  cancelAll(): void {
    for (const name of [...this.timers.keys()]) this.cancel(name);
  }

  private cancel(name: string): void {
    const timer = this.timers.get(name);
    if (timer) this.clock.clearTimeout(timer);
    this.timers.delete(name);
  }
}
