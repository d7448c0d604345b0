/**
 * The two ways cat-code waits on a timer. Both clear their timer on every path: a timer left
 * pending in a race keeps the process alive after its work is done.
 */

/** Resolves true after `ms`, or false at once when the signal aborts (or had aborted). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** True when `promise` settles (either way) within `ms`, false otherwise. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, expired]).finally(() => clearTimeout(timer));
}
