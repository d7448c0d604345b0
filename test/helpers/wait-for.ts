/**
 * Waits for something to become true: the one way a test waits for an event it cannot await
 * directly (a process writing a file, a server counting a request). It polls, and fails after a
 * generous deadline that only catches a hang, naming what it waited for. Never wait with a sleep.
 *
 * `what` may be a function, called only on failure: the message can then show the state at that
 * moment (the output so far, the screen).
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string | (() => string),
  { timeoutMs = 20_000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`);
    }
    await Bun.sleep(intervalMs);
  }
}
