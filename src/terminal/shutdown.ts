/**
 * Cleanup that runs on every way out: normal return, error, Ctrl-C, SIGTERM, SIGHUP. A signal runs
 * the registered cleanups (closing MCP servers, which ends their process trees), then exits with
 * 128 + the signal number, as a shell would report it.
 */
type Cleanup = () => Promise<void> | void;

const cleanups = new Set<Cleanup>();
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
let installed = false;
let exiting = false;

/** Registers a cleanup; returns a function that unregisters it. */
export function onShutdown(cleanup: Cleanup): () => void {
  installSignalHandlers();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export async function runCleanups(): Promise<void> {
  const pending = [...cleanups];
  cleanups.clear();
  await Promise.allSettled(pending.map(async (cleanup) => cleanup()));
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
    process.on(signal, () => {
      if (claimedSignals.has(signal)) return;
      if (exiting) return;
      exiting = true;
      // A second signal during cleanup should not wait: the exit hook still kills process groups.
      process.once(signal, () => process.exit(128 + SIGNAL_NUMBERS[signal]));
      void runCleanups().finally(() => process.exit(128 + SIGNAL_NUMBERS[signal]));
    });
  }
}
