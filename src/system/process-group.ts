import { descendantsOf, readProcess, readProcessTable } from "./process-table.ts";
import { hasProcessTable, planTreeSignal } from "./tree-signal-plan.ts";

/**
 * Ends whole process trees. Every stdio server and every bash tool command is started as the leader
 * of its own process group, so what it starts (through `npx`, `sh -c`, `&`) can be signalled at once.
 * Live groups are remembered so that they are killed even when cat-code exits abruptly.
 *
 * A descendant that leaves the group (`setsid`, `setpgid`) is out of the group's reach. On Linux
 * such processes are found through /proc by parent pid and signalled with the group; they must be
 * found while their parent lives, because an orphan is re-parented and no longer traces back to
 * the server. What detaches and is orphaned before anyone looks (a double-fork daemon) escapes.
 * Windows has no groups: `taskkill /T /F` ends the tree from its root (see tree-signal-plan.ts).
 */
const PLATFORM = process.platform;
const USE_PROC = hasProcessTable(PLATFORM);

const liveGroups = new Set<number>();
/** Per group leader: descendants that left its group, by pid, with their start time (a reused pid is never signalled). */
const detachedByGroup = new Map<number, Map<number, string>>();

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
  detachedByGroup.delete(pid);
}

/**
 * Notes the descendants of `pid` that left its process group, so that later signals to the group
 * reach them even after `pid` has exited and they were re-parented. Call it before the leader may
 * exit (before closing a server's stdin). Linux only; elsewhere it does nothing.
 */
export function rememberDetachedDescendants(pid: number): void {
  if (!USE_PROC) return;
  const table = readProcessTable();
  if (!table) return;
  for (const entry of descendantsOf(table, pid)) {
    if (entry.pgrp === pid || !entry.alive) continue;
    let detached = detachedByGroup.get(pid);
    if (!detached) detachedByGroup.set(pid, (detached = new Map()));
    detached.set(entry.pid, entry.startTime);
  }
}

/**
 * Sends a signal to every process of the tree: the group, and on Linux the descendants that left it.
 * False when the group (on Windows: the root) no longer exists.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (signal !== 0) {
    // While the leader lives, what it detached can still be traced to it.
    rememberDetachedDescendants(pid);
    for (const stray of liveDetached(pid)) trySignal(stray, signal);
  }
  const plan = planTreeSignal(PLATFORM, pid, signal);
  switch (plan.kind) {
    case "group":
      return trySignal(-plan.pid, plan.signal);
    case "probe":
      return trySignal(plan.pid, 0);
    case "command":
      return runQuietly(plan.argv) || trySignal(plan.rootPid, signal);
  }
}

/**
 * True while the tree has a member that is not a zombie. Signal 0 alone says yes for zombies too,
 * and where nothing reaps orphans (some containers' init), a killed grandchild stays a zombie: on
 * Linux, /proc tells the living from the dead.
 */
export function groupAlive(pid: number): boolean {
  if (!USE_PROC) return signalGroup(pid, 0);
  if (liveDetached(pid).length > 0) return true;
  if (!signalGroup(pid, 0)) return false;
  const table = readProcessTable();
  if (!table) return true;
  return table.some((entry) => entry.pgrp === pid && entry.alive);
}

/** Polls until the tree is gone or `ms` have passed; true when it is gone. */
export async function waitForGroupExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}

/** The remembered detached descendants of the group that still run (and are still the same process). */
function liveDetached(pid: number): number[] {
  const detached = detachedByGroup.get(pid);
  if (!detached) return [];
  const live: number[] = [];
  for (const [stray, startTime] of detached) {
    const entry = readProcess(stray);
    if (entry && entry.startTime === startTime && entry.alive) live.push(stray);
    else detached.delete(stray);
  }
  return live;
}

function runQuietly(argv: string[]): boolean {
  try {
    return Bun.spawnSync(argv, { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  } catch {
    return false; // Not installed.
  }
}

function trySignal(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

// The last resort, synchronous by necessity: whatever path leads to exit, no server outlives us.
process.on("exit", () => {
  for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
});
