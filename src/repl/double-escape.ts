import { systemClock, type Clock } from "../system/clock.ts";

/** How soon a second Esc must follow the first to count as Esc Esc. */
export const DOUBLE_ESCAPE_MS = 1_000;

/**
 * Esc Esc at an empty prompt (it opens /rewind, as in Claude Code): two Esc presses within a
 * second with no other key between. A terminal that sends both in one read is a double at once.
 */
export class DoubleEscape {
  private firstAt: number | undefined;

  constructor(private readonly clock: Pick<Clock, "now"> = systemClock) {}

  /** One Esc key (`\u001b`, or `\u001b\u001b` for two in one read): true when it completes a double. */
  press(sequence: string): boolean {
    if (sequence === "\u001b\u001b") return this.done();
    const now = this.clock.now();
    if (this.firstAt !== undefined && now - this.firstAt <= DOUBLE_ESCAPE_MS) return this.done();
    this.firstAt = now;
    return false;
  }

  /** Another key came between: the next Esc is a first one. */
  reset(): void {
    this.firstAt = undefined;
  }

  private done(): true {
    this.firstAt = undefined;
    return true;
  }
}
