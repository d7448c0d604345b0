/**
 * Ends whole process trees. Every stdio server is started as the leader of its own process group,
 * so a server reached through `npx` or `sh -c` (and anything it starts) can be signalled at once.
 * Live groups are remembered so that they are killed even when cat-code exits abruptly.
 */
const liveGroups = new Set<number>();

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Sends a signal to every process of the group; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

/** Polls until the group is gone or `ms` have passed; true when it is gone. */
export async function waitForGroupExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await Bun.sleep(10);
  }
  return true;
}

// The last resort, synchronous by necessity: whatever path leads to exit, no server outlives us.
process.on("exit", () => {
  for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
});
