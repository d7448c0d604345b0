import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { treeResidentBytes } from "../../../src/system/process-memory.ts";
import { descendantsOf, readProcessTable } from "../../../src/system/process-table.ts";
import { waitFor } from "../../helpers/wait-for.ts";

function ownResidentBytes(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

test.skipIf(process.platform !== "linux")("a process tree's resident memory counts what it started; a pid that is gone has none", async () => {
  // A shell holding a child, as `npx` holds its server.
  const shell = Bun.spawn(["bash", "-c", "sleep 60 & wait"], { stdin: "ignore" });
  let child: number | undefined;
  try {
    await waitFor(() => (child = descendantsOf(readProcessTable() ?? [], shell.pid)[0]?.pid) !== undefined, "the shell's child to start");
    // Measured once it is `sleep`: between fork and exec the child is a copy of bash on its way out,
    // its memory changing under the two readings below.
    await waitFor(() => readFileSync(`/proc/${child}/comm`, "utf8").trim() === "sleep", "the child to become sleep");
    const tree = treeResidentBytes([shell.pid]).get(shell.pid)!;
    expect(tree).toBeGreaterThanOrEqual(ownResidentBytes(shell.pid) + ownResidentBytes(child!) - 64 * 1024);
    expect(tree).toBeGreaterThan(ownResidentBytes(shell.pid));
  } finally {
    if (child !== undefined) process.kill(child, "SIGKILL");
    shell.kill("SIGKILL");
    await shell.exited;
  }
  expect(treeResidentBytes([shell.pid]).has(shell.pid)).toBe(false);
});
