import { expect, test } from "bun:test";
import { keeperExits } from "../../../src/cli/mcp/keeper-command.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { startZombie } from "../../helpers/processes.ts";

test.skipIf(process.platform === "win32")("mcp keeper stop: a keeper that exited is done at once, though its parent has not reaped it", async () => {
  const zombie = await startZombie();
  try {
    // A clock that never moves: only a keeper seen as gone at the first look ends the wait.
    const clock = new FakeClock();
    const exits = keeperExits(zombie.pid, clock, 10_000);
    clock.advance(10_000);
    expect(await exits).toBe(true);
  } finally {
    await zombie.end();
  }
});

test("mcp keeper stop: a keeper that still runs is waited for until the time is up", async () => {
  const clock = new FakeClock();
  let settled: boolean | undefined;
  const exits = keeperExits(process.pid, clock, 100).then((value) => (settled = value));
  await Promise.resolve();
  expect(settled).toBeUndefined();
  // Each turn lets the wait's continuation run (a macrotask after every microtask), then moves time.
  for (let i = 0; i < 100 && settled === undefined; i++) {
    clock.advance(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(clock.now()).toBeGreaterThanOrEqual(100);
  expect(await exits).toBe(false);
});
