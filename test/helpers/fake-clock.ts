import type { Clock, ClockTimer } from "../../src/system/clock.ts";

interface FakeTimer extends ClockTimer {
  at: number;
  order: number;
  callback: () => void;
  referenced: boolean;
}

/**
 * A clock that moves only when a test says so: `advance(ms)` fires every timer that falls due, in
 * the order a real clock would, each seeing `now()` at its own due time. No test waits on real time.
 */
export class FakeClock implements Clock {
  private time = 0;
  private created = 0;
  private readonly timers = new Set<FakeTimer>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    const timer: FakeTimer = {
      at: this.time + Math.max(0, ms),
      order: this.created++,
      callback,
      referenced: true,
      ref: () => (timer.referenced = true),
      unref: () => (timer.referenced = false),
    };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(timer: ClockTimer): void {
    this.timers.delete(timer as FakeTimer);
  }

  /** Moves time forward by `ms`, firing the timers due by then. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.timers.delete(next);
      this.time = next.at;
      next.callback();
    }
    this.time = target;
  }

  /** Timers still pending; `referenced` counts only those that would keep a real process alive. */
  pending(options: { referenced?: boolean } = {}): number {
    return [...this.timers].filter((timer) => !options.referenced || timer.referenced).length;
  }

  private nextDue(target: number): FakeTimer | undefined {
    let next: FakeTimer | undefined;
    for (const timer of this.timers) {
      if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer;
    }
    return next;
  }
}
