import { waitFor } from "./wait-for.ts";

/** Pids of processes whose command line contains `pattern`. */
export async function findProcesses(pattern: string): Promise<number[]> {
  const result = Bun.spawnSync(["pgrep", "-f", pattern]);
  const pids = result.stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  return pids.filter((pid) => pid !== process.pid);
}

/** Waits (generously) until no process matches; returns the ones still there. */
export async function waitForNoProcesses(pattern: string, ms = 5000): Promise<number[]> {
  let pids: number[] = [];
  const gone = async () => {
    pids = await findProcesses(pattern);
    return pids.length === 0;
  };
  await waitFor(gone, `no process matching ${pattern}`, { timeoutMs: ms, intervalMs: 50 }).catch(() => {});
  return pids;
}

export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}
