import { systemClock, type Clock, type ClockTimer } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";

/** The longest a group stays open for new requests; a request may time out this much late, never early. */
export const MAX_WINDOW_MS = 10;

/** Requests of one method and timeout that started close together, with one deadline and one signal. */
export interface TimeoutGroup {
  readonly signal: AbortSignal;
}

interface Group extends TimeoutGroup {
  readonly key: string;
  readonly controller: AbortController;
  readonly openUntil: number;
  timer: ClockTimer;
  active: number;
}

/**
 * Per-request timeouts without a timer and an AbortController per request: with 256 calls in flight
 * those cost more than the rest of a call. Requests of the same method and timeout that start within
 * a short window (a tenth of the timeout, at most 10 ms) join one group, whose deadline is the end of
 * the window plus the timeout: a request never times out early, and at most a window late. A group
 * with no request in it does not keep the process alive. Time comes from `clock`.
 */
export class TimeoutGroups {
  private readonly open = new Map<string, Group>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** The group a request starting now joins; `release` it when the request settles. */
  acquire(method: string, timeoutMs: number): TimeoutGroup {
    const key = `${timeoutMs} ${method}`;
    const now = this.clock.now();
    let group = this.open.get(key);
    if (group === undefined || now >= group.openUntil || group.controller.signal.aborted) {
      if (group && group.active === 0) this.clock.clearTimeout(group.timer);
      group = this.start(key, method, timeoutMs, now);
    }
    if (group.active++ === 0) group.timer.ref();
    return group;
  }

  release(timeoutGroup: TimeoutGroup): void {
    const group = timeoutGroup as Group;
    if (--group.active > 0) return;
    if (this.open.get(group.key) === group) {
      // Still open for joiners: keep the timer, but do not let it hold the process.
      group.timer.unref();
    } else {
      this.clock.clearTimeout(group.timer);
    }
  }

  private start(key: string, method: string, timeoutMs: number, now: number): Group {
    const windowMs = Math.min(MAX_WINDOW_MS, timeoutMs / 10);
    const controller = new AbortController();
    const group: Group = {
      key,
      controller,
      signal: controller.signal,
      openUntil: now + windowMs,
      active: 0,
      timer: this.clock.setTimeout(() => {
        if (this.open.get(key) === group) this.open.delete(key);
        controller.abort(McpError.timeout(method, timeoutMs));
      }, windowMs + timeoutMs),
    };
    this.open.set(key, group);
    return group;
  }
}
