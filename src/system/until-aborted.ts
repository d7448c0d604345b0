/**
 * Resolves when `work` settles or `signal` aborts, whichever is first: a wait the user can give up
 * (Esc, Ctrl-C) without cancelling the work itself. The abort listener is removed either way, so a
 * long-lived signal does not gather one per wait.
 */
export async function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return void (await work);
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
