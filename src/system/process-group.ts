import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * Ends whole process trees. Every stdio server and every bash tool command is started as the leader
 * of its own process group, so what it starts (through `npx`, `sh -c`, `&`) can be signalled at once.
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

/**
 * True while the group has a member that is not a zombie. Signal 0 alone says yes for zombies too,
 * and where nothing reaps orphans (some containers' init), a killed grandchild stays a zombie: on
 * Linux, /proc tells the living from the dead.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  if (!existsSync("/proc/self/stat")) return true;
  for (const entry of readdirSync("/proc")) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // Gone since the listing.
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/** Polls until the group is gone or `ms` have passed; true when it is gone. */
export async function waitForGroupExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}

// The last resort, synchronous by necessity: whatever path leads to exit, no server outlives us.
process.on("exit", () => {
  for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
});
