import { describe, expect, test } from "bun:test";
import { descendantsOf, readProcess, readProcessTable, type ProcessEntry } from "../../../src/system/process-table.ts";

const entry = (pid: number, ppid: number, pgrp = ppid): ProcessEntry => ({ pid, ppid, pgrp, startTime: String(pid), alive: true });

describe("descendantsOf", () => {
  test("follows parent pids through every generation, whatever group each child is in", () => {
    const table = [entry(1, 0), entry(10, 1), entry(11, 10, 11), entry(12, 11, 12), entry(13, 10), entry(20, 1)];
    expect(descendantsOf(table, 10).map((e) => e.pid).sort()).toEqual([11, 12, 13]);
  });

  test("a process without children has no descendants, and a cycle in a stale table ends", () => {
    expect(descendantsOf([entry(10, 1), entry(11, 12), entry(12, 11)], 10)).toEqual([]);
    expect(descendantsOf([entry(11, 12), entry(12, 11)], 11).map((e) => e.pid)).toEqual([12]);
  });
});

describe.skipIf(process.platform !== "linux")("/proc on Linux", () => {
  test("reads this process: its parent, its group, alive; and a child found by parent pid", async () => {
    const child = Bun.spawn(["sleep", "30"], { stdin: "ignore" });
    try {
      const self = readProcess(process.pid);
      expect(self?.ppid).toBe(process.ppid);
      expect(self?.alive).toBe(true);
      const table = readProcessTable() ?? [];
      expect(descendantsOf(table, process.pid).map((e) => e.pid)).toContain(child.pid);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });

  test("a process that is gone reads as undefined", async () => {
    const child = Bun.spawn(["true"]);
    await child.exited;
    expect(readProcess(child.pid)).toBeUndefined();
  });
});
