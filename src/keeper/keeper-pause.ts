import type { Clock } from "../system/clock.ts";

/** Waits `ms` on the clock (a test's clock moves when the test says). Product code's short pauses between tries. */
export function pause(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/** The promise's value, or `undefined` when it has not settled within `ms` on the clock. A rejection passes through. */
export async function within<T>(promise: Promise<T>, clock: Clock, ms: number): Promise<T | undefined> {
  let timer: ReturnType<Clock["setTimeout"]> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = clock.setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    if (timer) clock.clearTimeout(timer);
  }
}

/** Polls `done` with a growing pause until it holds (true) or `ms` pass (false). */
export async function until(done: () => boolean, clock: Clock, ms: number): Promise<boolean> {
  const deadline = clock.now() + ms;
  let wait = 5;
  while (!done()) {
    if (clock.now() >= deadline) return false;
    await pause(clock, wait);
    wait = Math.min(wait * 2, 50);
  }
  return true;
}
