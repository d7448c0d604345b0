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

/**
 * A real zombie: a child that has exited and that its parent (a `sleep` that never waits) does not
 * reap. The child exits only once the parent is `sleep` (a shell would reap it). `pid` is the
 * zombie's; `end()` kills the parent, so init reaps the zombie.
 */
export async function startZombie(): Promise<{ pid: number; end: () => Promise<void> }> {
  const parent = Bun.spawn(["sh", "-c", "exec 3<&0; head -c 1 <&3 >/dev/null & echo $!; exec sleep 60 3<&-"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const end = async () => {
    parent.kill("SIGKILL");
    await parent.exited;
  };
  const reader = parent.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const pid = Number(text.trim());
  const ps = (field: string, of: number) => Bun.spawnSync(["ps", "-o", `${field}=`, "-p", String(of)]).stdout.toString().trim();
  try {
    await waitFor(() => ps("comm", parent.pid) === "sleep", "the shell to become sleep");
    parent.stdin.write("x");
    await parent.stdin.flush();
    await waitFor(() => ps("stat", pid).startsWith("Z"), `pid ${pid} to be a zombie`);
  } catch (error) {
    await end();
    throw error;
  }
  return { pid, end };
}
