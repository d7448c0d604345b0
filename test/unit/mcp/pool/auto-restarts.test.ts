import { expect, test } from "bun:test";
import { AutoRestarts, STABLE_AFTER_MS } from "../../../../src/mcp/pool/auto-restarts.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";

test("crashes close together use up the delays; one long after the last restart gets them all again", () => {
  const clock = new FakeClock();
  const restarts = new AutoRestarts(clock, [100, 1000]);
  let restarted = 0;
  const restart = () => restarted++;
  expect(restarts.schedule("echo", restart)).toBe(100);
  clock.advance(100);
  expect(restarts.schedule("echo", restart)).toBe(1000);
  clock.advance(1000);
  // A third crash soon after: it stays FAILED (a crash loop is not restarted for ever).
  expect(restarts.schedule("echo", restart)).toBeUndefined();
  expect(restarted).toBe(2);
  // Each server counts its own.
  expect(restarts.schedule("other", restart)).toBe(100);
  // Up for a long while, then a crash: a new run of crashes.
  clock.advance(STABLE_AFTER_MS);
  expect(restarts.schedule("echo", restart)).toBe(100);
  clock.advance(100);
  expect(restarted).toBe(4);
});

test("the user's restart starts the count again at once", () => {
  const clock = new FakeClock();
  const restarts = new AutoRestarts(clock, [100]);
  expect(restarts.schedule("echo", () => {})).toBe(100);
  expect(restarts.schedule("echo", () => {})).toBeUndefined();
  restarts.reset("echo");
  expect(restarts.schedule("echo", () => {})).toBe(100);
});

test("the quiet that starts the count again is counted from the restart, not the crash: a long delay is not a fresh start", () => {
  const clock = new FakeClock();
  const restarts = new AutoRestarts(clock, [STABLE_AFTER_MS]);
  expect(restarts.schedule("echo", () => {})).toBe(STABLE_AFTER_MS);
  // Restarted only now, and crashing at once: the same run of crashes, its one restart used.
  clock.advance(STABLE_AFTER_MS);
  expect(restarts.schedule("echo", () => {})).toBeUndefined();
});
