import { existsSync, readFileSync } from "node:fs";
import { keeperPaths, type KeeperPaths } from "../../src/keeper/keeper-paths.ts";
import { waitFor } from "./wait-for.ts";

/**
 * What a test sees of the keeper of one `CAT_CODE_HOME`: its `keeper.json`, its process (told apart
 * from the keepers of other tests and other helpers on this machine by the CAT_CODE_HOME in its
 * environment), and a way to end it that leaves nothing behind. Linux: reads /proc.
 */
export interface KeeperInfo {
  pid: number;
  version: string;
  protocol: number;
  token: string;
  startedAt: number;
}

export function pathsOf(home: string): KeeperPaths {
  return keeperPaths({ CAT_CODE_HOME: home });
}

export function readKeeperInfo(home: string): KeeperInfo | undefined {
  try {
    return JSON.parse(readFileSync(pathsOf(home).info, "utf8")) as KeeperInfo;
  } catch {
    return undefined;
  }
}

/** True while the process runs (a zombie, exited but not yet reaped, counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function environOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** The live processes running `mcp keeper run` with this CAT_CODE_HOME. */
export function keeperProcessesOf(home: string): number[] {
  const found = Bun.spawnSync(["pgrep", "-f", "mcp keeper run"]).stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  return found.filter((pid) => pid !== process.pid && isAlive(pid) && environOf(pid).includes(`CAT_CODE_HOME=${home}`));
}

/** Waits until the home's keeper answers as a process (keeper.json written, its pid alive). */
export function waitForKeeper(home: string, what = `a keeper in ${home}`): Promise<KeeperInfo> {
  return waitFor(() => {
    const info = readKeeperInfo(home);
    return info && isAlive(info.pid) ? info : undefined;
  }, what);
}

export function waitForExit(pid: number, what: string, timeoutMs = 10_000): Promise<true> {
  return waitFor(() => !isAlive(pid), what, { timeoutMs, intervalMs: 20 });
}

/**
 * Ends every keeper of `home` and waits for each to exit: first as a user would (`stop`, which
 * closes its servers), then SIGKILL for one that would not go, which is reported by throwing, so a
 * test never leaves a keeper behind and a keeper that ignores `stop` never goes unnoticed.
 */
export async function stopKeepersOf(home: string, stop: () => Promise<unknown>): Promise<number[]> {
  // Only processes that are keepers of this home by their command line and environment: a
  // keeper.json may name any pid (a test writes one; a stale file names a reused one).
  const pids = new Set(keeperProcessesOf(home));
  if (pids.size === 0) return [];
  if (existsSync(pathsOf(home).socket)) await stop();
  const stubborn: number[] = [];
  for (const pid of pids) {
    try {
      await waitForExit(pid, `keeper ${pid} of ${home} to exit after stop`, 5000);
    } catch {
      stubborn.push(pid);
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
  if (stubborn.length) throw new Error(`keeper(s) ${stubborn.join(", ")} of ${home} did not exit on stop: killed`);
  return [...pids];
}
