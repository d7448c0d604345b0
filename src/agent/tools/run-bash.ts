import { signalGroup, trackGroup, untrackGroup } from "../../system/process-group.ts";
import { startsOwnGroup } from "../../system/tree-signal-plan.ts";
import { findBash } from "./find-bash.ts";
import { OutputCollector } from "./output-collector.ts";

/** Between SIGTERM and SIGKILL: long enough to flush, short enough that Ctrl-C feels immediate. */
const KILL_GRACE_MS = 1_000;
/** How long to keep reading after the shell exits, for output still in the pipe. */
const DRAIN_MS = 250;

export interface RunBashOptions {
  cwd: string;
  env: Record<string, string>;
  /** Characters of each stream's head kept; the rest are counted as dropped, but for the tail. */
  limit: number;
  /** Characters of each stream's tail kept once the head is full (default none). */
  tailLimit?: number;
  /** Aborting it ends the command's whole process tree. */
  signal?: AbortSignal;
  /** Ends the command's whole process tree after this many milliseconds; none without it. */
  timeoutMs?: number;
  /** Written to the command's stdin (a hook's JSON); stdin is closed when absent. */
  stdin?: string;
}

export type BashRun =
  | {
      ok: true;
      exitCode: number;
      stopped: "timeout" | "cancelled" | undefined;
      stdout: OutputCollector;
      stderr: OutputCollector;
      /** False when a background process still held a stream open and reading stopped. */
      drained: boolean;
    }
  | { ok: false; reason: string };

/**
 * Runs `command` with `bash -c`, stdin closed (or given), collecting both output streams up to `limit`. A
 * timeout or an abort sends SIGTERM to the command's process tree, then SIGKILL after a grace time.
 */
export async function runBash(command: string, options: RunBashOptions): Promise<BashRun> {
  const bash = findBash();
  if (!bash.ok) return bash;
  let child: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    // Its own process group (POSIX), so a timeout or Ctrl-C ends everything the command started.
    child = Bun.spawn([bash.path, "-c", command], {
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
      stdout: "pipe",
      stderr: "pipe",
      detached: startsOwnGroup(process.platform),
    });
  } catch (error) {
    return { ok: false, reason: `could not start bash: ${(error as Error).message}` };
  }

  // Should cat-code exit while the command runs, its exit hook ends the command's tree too.
  trackGroup(child.pid);
  const stdout = new OutputCollector(child.stdout, options.limit, options.tailLimit);
  const stderr = new OutputCollector(child.stderr, options.limit, options.tailLimit);
  let stopped: "timeout" | "cancelled" | undefined;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: "timeout" | "cancelled") => {
    if (stopped) return;
    stopped = why;
    signalGroup(child.pid, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const exitCode = await child.exited;
    // The shell may be gone while what it started lives on; a stopped command leaves nothing.
    if (stopped || options.signal?.aborted) signalGroup(child.pid, "SIGKILL");
    const drained = (await Promise.all([stdout.settle(DRAIN_MS), stderr.settle(DRAIN_MS)])).every(Boolean);
    return { ok: true, exitCode, stopped, stdout, stderr, drained };
  } finally {
    untrackGroup(child.pid);
    clearTimeout(timer);
    clearTimeout(killTimer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
