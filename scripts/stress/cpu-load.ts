import { availableParallelism } from "node:os";
import { join } from "node:path";

/** Busy-loop processes that keep every core busy while the tests run. */
export interface CpuLoad {
  pids: number[];
  /** Ends every busy loop and waits for them; safe to call twice, and from a signal handler. */
  stop(): Promise<void>;
}

export const CORES = availableParallelism();

/** Starts `count` busy loops (one per core by default). */
export function startCpuLoad(count = CORES): CpuLoad {
  const loops = Array.from({ length: count }, () =>
    // stdin is a pipe held by this process: when it ends, however it ends, the loop sees EOF and exits.
    Bun.spawn([process.execPath, join(import.meta.dir, "busy-loop.ts")], { stdin: "pipe", stdout: "ignore", stderr: "inherit" }),
  );
  let stopped: Promise<void> | undefined;
  return {
    pids: loops.map((loop) => loop.pid),
    stop() {
      stopped ??= Promise.all(
        loops.map((loop) => {
          loop.kill("SIGKILL");
          return loop.exited;
        }),
      ).then(() => {});
      return stopped;
    },
  };
}
