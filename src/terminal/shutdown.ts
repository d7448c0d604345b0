/**
 * Cleanup that runs on every way out: normal return, error, Ctrl-C, and every signal whose default
 * is to end the process (SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE). A signal runs
 * the registered cleanups (closing MCP servers, which ends their process trees), then exits with
 * 128 + the signal number, as a shell would report it. Without a handler, SIGUSR1 and the others
 * would end cat-code at once and leave its servers running.
 *
 * SIGPIPE is only ever ours to handle through stdout or stderr (the reader went away, 141): Bun
 * writes to a server's stdin and to sockets without raising it, so a crashed server is not one.
 */
type Cleanup = () => Promise<void> | void;

const cleanups = new Set<Cleanup>();
const SIGNAL_NUMBERS = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGUSR1: 10,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
} as const;
let installed = false;
let exiting = false;
/** Cleanups under way: a second caller (main's `finally` after a signal) waits for them too. */
let running: Promise<unknown> = Promise.resolve();

/** Registers a cleanup; returns a function that unregisters it. */
export function onShutdown(cleanup: Cleanup): () => void {
  installSignalHandlers();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered cleanup once; resolves when those already started are done too. */
export async function runCleanups(): Promise<void> {
  const pending = [...cleanups];
  cleanups.clear();
  running = Promise.all([running, Promise.allSettled(pending.map(async (cleanup) => cleanup()))]);
  await running;
}

/** Signals that a caller (the REPL, for Ctrl-C) wants to handle itself. */
const claimedSignals = new Set<NodeJS.Signals>();

export function claimSignal(signal: NodeJS.Signals): () => void {
  claimedSignals.add(signal);
  return () => claimedSignals.delete(signal);
}

function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(SIGNAL_NUMBERS) as (keyof typeof SIGNAL_NUMBERS)[]) {
    // Windows knows only SIGINT, SIGTERM and SIGHUP (SIGBREAK aside) of these.
    if (process.platform === "win32" && !["SIGINT", "SIGTERM", "SIGHUP"].includes(signal)) continue;
    process.on(signal, () => {
      if (claimedSignals.has(signal) || exiting) return;
      // A second signal during cleanup should not wait: the exit hook still kills process groups.
      // Not so SIGPIPE: a second one is no impatient user, only another write to the closed pipe.
      if (signal !== "SIGPIPE") process.once(signal, () => process.exit(128 + SIGNAL_NUMBERS[signal]));
      exitAfterCleanup(128 + SIGNAL_NUMBERS[signal]);
    });
  }
}

/** Ends cat-code the way a signal does: every cleanup, then `process.exit(code)`. The first call wins. */
export function exitAfterCleanup(code: number): void {
  if (exiting) return;
  exiting = true;
  void runCleanups().finally(() => process.exit(code));
}
