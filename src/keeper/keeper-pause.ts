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
