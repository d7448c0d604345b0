import { readProcess } from "./process-table.ts";
import { hasProcessTable } from "./tree-signal-plan.ts";

/**
 * Whether `pid` still runs. A zombie (exited, not yet reaped) does not, though signal 0 still finds
 * it: where the dead wait for an init that reaps them late, or never (some containers), asking only
 * signal 0 waits for nothing. A process of another user (EPERM) runs. Linux reads the state from
 * /proc, macOS and the BSDs from `ps`; Windows has no zombies to tell apart: signal 0 alone.
 */
export function processAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (platform === "win32") return true;
  // Unreadable (no /proc, no ps, or it exited this instant): signal 0 has the last word until the next look.
  if (hasProcessTable(platform)) return readProcess(pid)?.alive ?? true;
  return !psState(pid)?.startsWith("Z");
}

/** `ps -o stat=`: the state letters (`Z` for a zombie), or undefined when ps cannot say. */
function psState(pid: number): string | undefined {
  // Bun's spawn, not node:child_process: loading that costs every warm command (file locks use this) its import.
  const ps = Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  return ps.exitCode === 0 ? ps.stdout.toString().trim() : undefined;
}
