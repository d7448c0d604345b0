import { expect, test } from "bun:test";
import { settlesWithin, sleep } from "../../../src/system/timers.ts";

test("sleep resolves true when its time has passed, false at once when aborted", async () => {
  expect(await sleep(1)).toBe(true);
  const controller = new AbortController();
  const waiting = sleep(60_000, controller.signal);
  controller.abort();
  expect(await waiting).toBe(false);
  expect(await sleep(60_000, controller.signal)).toBe(false);
});

test("settlesWithin: true for a promise that settles either way, false for one that never does", async () => {
  expect(await settlesWithin(Promise.resolve(1), 60_000)).toBe(true);
  expect(await settlesWithin(Promise.reject(new Error("no")), 60_000)).toBe(true);
  expect(await settlesWithin(new Promise(() => {}), 1)).toBe(false);
});
