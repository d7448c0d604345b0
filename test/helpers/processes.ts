/** Pids of processes whose command line contains `pattern`. */
export async function findProcesses(pattern: string): Promise<number[]> {
  const result = Bun.spawnSync(["pgrep", "-f", pattern]);
  const pids = result.stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  return pids.filter((pid) => pid !== process.pid);
}

/** Waits (generously) until no process matches; returns the ones still there. */
export async function waitForNoProcesses(pattern: string, ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let pids = await findProcesses(pattern);
  while (pids.length > 0 && Date.now() < deadline) {
    await Bun.sleep(50);
    pids = await findProcesses(pattern);
  }
  return pids;
}

export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}
