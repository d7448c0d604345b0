import { describe, expect, test } from "bun:test";
import { CallProgress, MAX_PROGRESS_STRETCH, RequestTimeout } from "../../../src/mcp/client/request-timeout.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";

describe("RequestTimeout", () => {
  test("a request never times out early, and times out at its timeout with the method named", () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, "tools/call", 100);
    clock.advance(99.999);
    expect([timeout.signal.aborted, timeout.expired()]).toEqual([false, undefined]);
    clock.advance(0.001);
    expect(timeout.signal.aborted).toBe(true);
    expect(timeout.expired()).toMatchObject({ code: ErrorCode.RequestTimeout, message: "tools/call timed out after 100 ms" });
    expect(timeout.signal.reason).toBe(timeout.expired());
  });

  test("each request has its own deadline, however close together they start", () => {
    const clock = new FakeClock();
    const first = new RequestTimeout(clock, "ping", 50);
    clock.advance(5);
    const second = new RequestTimeout(clock, "ping", 50);
    clock.advance(45);
    expect([first.signal.aborted, second.signal.aborted]).toEqual([true, false]);
    clock.advance(5);
    expect(second.signal.aborted).toBe(true);
  });

  test("a settled request leaves no timer behind, and a second end is harmless", () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, "tools/list", 1000);
    expect(clock.pending({ referenced: true })).toBe(1);
    timeout.end();
    timeout.end();
    expect(clock.pending()).toBe(0);
    timeout.reset();
    expect(clock.pending()).toBe(0);
  });

  test("the caller's abort aborts the request's signal with its reason, and is not a timeout", () => {
    const clock = new FakeClock();
    const caller = new AbortController();
    const timeout = new RequestTimeout(clock, "tools/call", 1000, caller.signal);
    caller.abort(new Error("Ctrl-C"));
    expect(timeout.signal.aborted).toBe(true);
    expect((timeout.signal.reason as Error).message).toBe("Ctrl-C");
    expect(timeout.expired()).toBeUndefined();
    const already = new RequestTimeout(clock, "tools/call", 1000, caller.signal);
    expect(already.signal.aborted).toBe(true);
  });

  test("a caller's signal that outlives the request is let go on end", () => {
    const caller = new AbortController();
    const timeout = new RequestTimeout(new FakeClock(), "tools/call", 1000, caller.signal);
    timeout.end();
    caller.abort();
    expect(timeout.signal.aborted).toBe(false);
  });

  test("progress gives the request its full timeout again, on the same signal", () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, "tools/call", 1000);
    const { signal } = timeout;
    clock.advance(900);
    timeout.reset();
    clock.advance(999);
    expect(signal.aborted).toBe(false);
    clock.advance(1);
    expect(timeout.signal).toBe(signal);
    expect(signal.aborted).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  test(`progress stretches a request to at most ${MAX_PROGRESS_STRETCH} timeouts, counted from the first progress`, () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, "tools/call", 1000);
    clock.advance(500);
    // From the first progress at 500 ms, nine more timeouts at most: the call ends at 9,500 ms.
    for (let i = 0; i < 30 && !timeout.signal.aborted; i++) {
      timeout.reset();
      clock.advance(600);
    }
    expect(timeout.expired()?.message).toBe(
      `tools/call timed out: it kept reporting progress, but a call may run at most ${1000 * MAX_PROGRESS_STRETCH} ms (${MAX_PROGRESS_STRETCH}× its 1000 ms timeout)`,
    );
    expect(clock.now()).toBeLessThanOrEqual(500 + 1000 * (MAX_PROGRESS_STRETCH - 1) + 600);
    expect(clock.now()).toBeGreaterThan(1000 * (MAX_PROGRESS_STRETCH - 1));
  });
});

describe("CallProgress", () => {
  test("a progress resets the timeout of the round in flight, and the caller hears it", () => {
    const clock = new FakeClock();
    const heard: number[] = [];
    const progress = new CallProgress((update) => heard.push(update.progress));
    const round = new RequestTimeout(clock, "tools/call", 100);
    progress.timeout = round;
    clock.advance(90);
    progress.progressed({ progress: 1 });
    clock.advance(90);
    expect([round.signal.aborted, heard]).toEqual([false, [1]]);
    clock.advance(10);
    expect(round.signal.aborted).toBe(true);
  });
});
