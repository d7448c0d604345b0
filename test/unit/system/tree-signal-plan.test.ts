import { describe, expect, test } from "bun:test";
import { hasProcessTable, planTreeSignal, startsOwnGroup, type TreeSignalPlan } from "../../../src/system/tree-signal-plan.ts";

describe("how a process tree is signalled, per platform", () => {
  test("Linux and macOS signal the process group (a negative pid), SIGKILL included", () => {
    for (const platform of ["linux", "darwin", "freebsd"] as const) {
      expect(planTreeSignal(platform, 4242, "SIGTERM")).toEqual({ kind: "group", pid: 4242, signal: "SIGTERM" });
      expect(planTreeSignal(platform, 4242, "SIGKILL")).toEqual({ kind: "group", pid: 4242, signal: "SIGKILL" });
      expect(planTreeSignal(platform, 4242, 0)).toEqual({ kind: "group", pid: 4242, signal: 0 });
    }
  });

  test("Windows ends the whole tree with taskkill /T /F, for SIGTERM and SIGKILL alike, else the root alone", () => {
    const taskkill: TreeSignalPlan = { kind: "command", argv: ["taskkill", "/PID", "4242", "/T", "/F"], rootPid: 4242 };
    expect(planTreeSignal("win32", 4242, "SIGTERM")).toEqual(taskkill);
    expect(planTreeSignal("win32", 4242, "SIGKILL")).toEqual(taskkill);
  });

  test("Windows asks the root alone whether the tree lives: there is no group and no negative pid", () => {
    expect(planTreeSignal("win32", 4242, 0)).toEqual({ kind: "probe", pid: 4242 });
  });

  test("children lead their own group except on Windows, where that would only open a console", () => {
    expect(startsOwnGroup("linux")).toBe(true);
    expect(startsOwnGroup("darwin")).toBe(true);
    expect(startsOwnGroup("win32")).toBe(false);
  });

  test("only Linux reads /proc", () => {
    expect(hasProcessTable("linux")).toBe(true);
    expect(hasProcessTable("darwin")).toBe(false);
    expect(hasProcessTable("win32")).toBe(false);
  });
});
