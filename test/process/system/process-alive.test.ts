import { describe, expect, test } from "bun:test";
import { processAlive } from "../../../src/system/process-alive.ts";
import { startZombie } from "../../helpers/processes.ts";

describe("processAlive", () => {
  test("a running process is alive; one that exited and was reaped is not", async () => {
    const child = Bun.spawn(["sleep", "30"], { stdin: "ignore" });
    expect(processAlive(child.pid)).toBe(true);
    child.kill("SIGKILL");
    await child.exited;
    expect(processAlive(child.pid)).toBe(false);
  });

  test.skipIf(process.platform === "win32")("a zombie (exited, its parent never reaps it) is not alive, though signal 0 still finds it", async () => {
    const zombie = await startZombie();
    try {
      expect(() => process.kill(zombie.pid, 0)).not.toThrow();
      expect(processAlive(zombie.pid)).toBe(false);
    } finally {
      await zombie.end();
    }
  });

  test.skipIf(process.platform === "win32")("where ps answers instead of /proc (macOS, the BSDs), a zombie is not alive either", async () => {
    const zombie = await startZombie();
    try {
      expect(processAlive(zombie.pid, "darwin")).toBe(false);
      expect(processAlive(process.pid, "darwin")).toBe(true);
    } finally {
      await zombie.end();
    }
  });
});
