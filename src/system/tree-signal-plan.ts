/**
 * How a process tree is signalled on each platform, decided from the platform alone so that the
 * choice can be tested anywhere. POSIX systems start each tree as its own process group and signal
 * the group (a negative pid). Windows has no process groups nor signals: `taskkill /T /F` ends a
 * process and everything it started, by parent pid, and liveness is asked of the root only.
 */
export type TreeSignalPlan =
  /** `process.kill(-pid, signal)`: every member of the group at once. */
  | { kind: "group"; pid: number; signal: NodeJS.Signals | 0 }
  /** `process.kill(pid, 0)`: is the root still there (Windows, where there is no group to ask). */
  | { kind: "probe"; pid: number }
  /**
   * Run this command, synchronously (it must work in an exit hook). Should it fail (no taskkill,
   * or one without /T, as in Wine 8), `process.kill(rootPid)` ends the root at least.
   */
  | { kind: "command"; argv: string[]; rootPid: number };

export function planTreeSignal(platform: NodeJS.Platform, pid: number, signal: NodeJS.Signals | 0): TreeSignalPlan {
  if (platform !== "win32") return { kind: "group", pid, signal };
  if (signal === 0) return { kind: "probe", pid };
  // There is no graceful stop for a console program from outside: SIGTERM and SIGKILL both end it.
  return { kind: "command", argv: ["taskkill", "/PID", String(pid), "/T", "/F"], rootPid: pid };
}

/**
 * Whether a child is started as the leader of a process group (Bun's `detached`). On Windows,
 * `detached` would give the child a console window of its own and buys nothing: taskkill walks
 * the tree by parent pid.
 */
export function startsOwnGroup(platform: NodeJS.Platform): boolean {
  return platform !== "win32";
}

/**
 * Whether /proc can tell who descends from whom and who is a zombie. Only Linux has it; elsewhere
 * nothing reads /proc (a stray /proc on another system is not trusted).
 */
export function hasProcessTable(platform: NodeJS.Platform): boolean {
  return platform === "linux";
}
