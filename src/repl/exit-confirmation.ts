import { systemClock, type Clock } from "../system/clock.ts";

/** How long the first Ctrl-C (or Ctrl-D) at an empty prompt waits for the second. */
export const EXIT_CONFIRM_MS = 2_000;

/** The two keys that leave the REPL when pressed twice at an empty prompt. */
export type ExitKey = "Ctrl-C" | "Ctrl-D";

/**
 * Ctrl-C or Ctrl-D at an empty prompt: the first says `(Ctrl-C again to exit)` (or Ctrl-D), a second
 * press of the same key within 2 s exits, as Claude Code does. Later than that, after anything else
 * was typed, or after the other key, it is a first press again: an old press must not turn a new one
 * into an exit the user did not ask for (Ctrl-C then Ctrl-D is two different intentions).
 */
export class ExitConfirmation {
  private first: { key: ExitKey; at: number } | undefined;

  constructor(private readonly clock: Pick<Clock, "now"> = systemClock) {}

  /** One press at an empty prompt: "exit" when it confirms an earlier press of the same key, else "ask". */
  press(key: ExitKey = "Ctrl-C"): "ask" | "exit" {
    const now = this.clock.now();
    if (this.first?.key === key && now - this.first.at <= EXIT_CONFIRM_MS) return "exit";
    this.first = { key, at: now };
    return "ask";
  }

  /** Anything else happened (a line was typed, a turn ran): the next press is a first one. */
  reset(): void {
    this.first = undefined;
  }
}

/** The hint under the prompt after a first press. */
export function exitHint(key: ExitKey): string {
  return `(${key} again to exit)`;
}
