import { systemClock, type Clock } from "../system/clock.ts";

/** How long the first Ctrl-C at an empty prompt waits for the second. */
export const EXIT_CONFIRM_MS = 2_000;

/**
 * Ctrl-C at an empty prompt: the first says `(Ctrl-C again to exit)`, a second within 2 s exits.
 * Later than that, or after anything else was typed, it is a first press again: an old Ctrl-C must
 * not turn a new one into an exit the user did not ask for.
 */
export class ExitConfirmation {
  private firstAt: number | undefined;

  constructor(private readonly clock: Pick<Clock, "now"> = systemClock) {}

  /** One Ctrl-C at an empty prompt: "exit" when it confirms an earlier one, else "ask". */
  press(): "ask" | "exit" {
    const now = this.clock.now();
    if (this.firstAt !== undefined && now - this.firstAt <= EXIT_CONFIRM_MS) return "exit";
    this.firstAt = now;
    return "ask";
  }

  /** Anything else happened (a line was typed, a turn ran): the next Ctrl-C is a first one. */
  reset(): void {
    this.firstAt = undefined;
  }
}
