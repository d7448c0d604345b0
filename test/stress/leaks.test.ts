/** No leaks: 200 connect/close cycles leave no child, no file descriptor and nothing that keeps the process alive. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN } from "../helpers/paths.ts";

/** Every timer the cycles could leave behind runs this long (see connect-cycles.ts). */
const LEFTOVER_MS = 60_000;

describe("no leaks", () => {
  test("after 200 connect/close cycles (stdio ok, crash, timeout; HTTP) no child remains, fds are back, and the process exits by itself", async () => {
    const child = Bun.spawn([BUN, join(import.meta.dir, "connect-cycles.ts"), String(LEFTOVER_MS)], { stdout: "pipe", stderr: "pipe" });
    const killer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    let reportedAt = 0;
    let output = "";
    for await (const chunk of child.stdout) {
      output += new TextDecoder().decode(chunk);
      if (!reportedAt && output.includes("\n")) reportedAt = performance.now();
    }
    const code = await child.exited;
    const exitedAfterMs = performance.now() - reportedAt;
    clearTimeout(killer);
    const line = /CYCLES (.*)/.exec(output)?.[1];
    if (!line) throw new Error(`no report; stderr:\n${await new Response(child.stderr).text()}`);
    const report = JSON.parse(line) as { fdsBefore: number; fdsAfter: number; children: string[]; cycles: number };
    console.log(`200 cycles: fds ${report.fdsBefore} -> ${report.fdsAfter}; exited ${exitedAfterMs.toFixed(0)} ms after its report`);
    expect(report.cycles).toBe(200);
    expect(report.children).toEqual([]);
    expect(report.fdsAfter).toBeLessThanOrEqual(report.fdsBefore);
    expect([code, child.signalCode]).toEqual([0, null]);
    // Nothing left to do once it reported: a leftover timer would keep it alive LEFTOVER_MS, a
    // leftover socket or child for good. The bound tells those apart from a slow machine.
    // (A Bun.sleep racing the close grace period once kept it alive 2 s after the last close.)
    expect(exitedAfterMs).toBeLessThan(LEFTOVER_MS / 3);
  });
});
