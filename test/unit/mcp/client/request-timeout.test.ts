import { describe, expect, test } from "bun:test";
import { CallProgress, MAX_PROGRESS_STRETCH, RequestTimeout } from "../../../../src/mcp/client/request-timeout.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import type { Clock } from "../../../../src/system/clock.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";

/** The connection's side: which ids the timeouts gave up, and why. */
function connection() {
  const cancelled: { id: number; message: string }[] = [];
  return { cancelled, cancel: (id: number, reason: Error) => void cancelled.push({ id, message: reason.message }) };
}

describe("RequestTimeout", () => {
  test("a request never times out early; at its timeout its id is given up, the method named", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const timeout = new RequestTimeout(clock, rpc, "tools/call", 100);
    timeout.registered(7);
    clock.advance(99.999);
    expect([rpc.cancelled, timeout.expired()]).toEqual([[], undefined]);
    clock.advance(0.001);
    expect(rpc.cancelled).toEqual([{ id: 7, message: "tools/call timed out after 100 ms" }]);
    expect(timeout.expired()).toMatchObject({ code: ErrorCode.RequestTimeout, message: "tools/call timed out after 100 ms" });
  });

  test("a timer that fires early (a system timer may, by up to a millisecond) does not time the request out early", () => {
    const fake = new FakeClock();
    const early: Clock = { now: () => fake.now(), setTimeout: (callback, ms) => fake.setTimeout(callback, ms - 0.9), clearTimeout: (timer) => fake.clearTimeout(timer) };
    const rpc = connection();
    const timeout = new RequestTimeout(early, rpc, "initialize", 100);
    timeout.registered(0);
    fake.advance(99.95);
    expect([rpc.cancelled, timeout.expired()]).toEqual([[], undefined]);
    // Then at most a millisecond late.
    fake.advance(1.05);
    expect(rpc.cancelled).toEqual([{ id: 0, message: "initialize timed out after 100 ms" }]);
  });

  test("each request has its own deadline, however close together they start", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const first = new RequestTimeout(clock, rpc, "ping", 50);
    first.registered(1);
    clock.advance(5);
    const second = new RequestTimeout(clock, rpc, "ping", 50);
    second.registered(2);
    clock.advance(45);
    expect(rpc.cancelled.map(({ id }) => id)).toEqual([1]);
    clock.advance(5);
    expect(rpc.cancelled.map(({ id }) => id)).toEqual([1, 2]);
  });

  test("a send's id goes to the request's own registration as well, and the latest send is the one given up", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const heard: number[] = [];
    const timeout = new RequestTimeout(clock, rpc, "server/discover", 100, undefined, { registered: (id) => heard.push(id) });
    timeout.registered(3);
    timeout.registered(4);
    clock.advance(100);
    expect([heard, rpc.cancelled.map(({ id }) => id)]).toEqual([[3, 4], [4]]);
  });

  test("a settled request leaves no timer behind and gives nothing up; a second end is harmless", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const timeout = new RequestTimeout(clock, rpc, "tools/list", 1000);
    timeout.registered(1);
    expect(clock.pending({ referenced: true })).toBe(1);
    timeout.end();
    timeout.end();
    timeout.reset();
    expect(clock.pending()).toBe(0);
    clock.advance(5000);
    expect([rpc.cancelled, timeout.expired()]).toEqual([[], undefined]);
  });

  test("its signal, made when asked for, aborts at the timeout, or at once when it already ran out", () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, connection(), "tools/call", 100);
    const { signal } = timeout;
    expect(timeout.signal).toBe(signal);
    clock.advance(100);
    expect([signal.aborted, signal.reason]).toEqual([true, timeout.expired()]);
    const late = new RequestTimeout(clock, connection(), "tools/call", 100);
    clock.advance(100);
    expect(late.signal.reason).toBe(late.expired());
  });

  test("the caller's abort aborts the signal with its reason, and is not a timeout", () => {
    const clock = new FakeClock();
    const caller = new AbortController();
    const timeout = new RequestTimeout(clock, connection(), "tools/call", 1000, caller.signal);
    const { signal } = timeout;
    caller.abort(new Error("Ctrl-C"));
    expect((signal.reason as Error).message).toBe("Ctrl-C");
    expect(timeout.expired()).toBeUndefined();
    expect(new RequestTimeout(clock, connection(), "tools/call", 1000, caller.signal).signal.aborted).toBe(true);
  });

  test("a caller's signal that outlives the request is let go on end", () => {
    const caller = new AbortController();
    const timeout = new RequestTimeout(new FakeClock(), connection(), "tools/call", 1000, caller.signal);
    const { signal } = timeout;
    timeout.end();
    caller.abort();
    expect(signal.aborted).toBe(false);
  });

  test("progress gives the request its full timeout again", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const timeout = new RequestTimeout(clock, rpc, "tools/call", 1000);
    timeout.registered(1);
    clock.advance(900);
    timeout.reset();
    clock.advance(999);
    expect(rpc.cancelled).toEqual([]);
    clock.advance(1);
    expect(rpc.cancelled).toEqual([{ id: 1, message: "tools/call timed out after 1000 ms" }]);
    expect(clock.pending()).toBe(0);
  });

  test(`progress stretches a request to at most ${MAX_PROGRESS_STRETCH} timeouts, counted from the first progress`, () => {
    const clock = new FakeClock();
    const timeout = new RequestTimeout(clock, connection(), "tools/call", 1000);
    clock.advance(500);
    // From the first progress at 500 ms, nine more timeouts at most: the call ends at 9,500 ms.
    while (clock.now() < 8900) {
      timeout.reset();
      clock.advance(600);
    }
    timeout.reset();
    clock.advance(599.999);
    expect(timeout.expired()).toBeUndefined();
    clock.advance(0.001);
    expect(clock.now()).toBe(500 + 1000 * (MAX_PROGRESS_STRETCH - 1));
    expect(timeout.expired()?.message).toBe(
      `tools/call timed out: it kept reporting progress, but a call may run at most ${1000 * MAX_PROGRESS_STRETCH} ms (${MAX_PROGRESS_STRETCH}× its 1000 ms timeout)`,
    );
  });
});

describe("CallProgress", () => {
  test("a progress resets the timeout of the round in flight, and the caller hears it", () => {
    const clock = new FakeClock();
    const rpc = connection();
    const heard: number[] = [];
    const progress = new CallProgress((update) => heard.push(update.progress));
    const round = new RequestTimeout(clock, rpc, "tools/call", 100);
    round.registered(1);
    progress.timeout = round;
    clock.advance(90);
    progress.progressed({ progress: 1 });
    clock.advance(90);
    expect([rpc.cancelled, heard]).toEqual([[], [1]]);
    clock.advance(10);
    expect(rpc.cancelled.map(({ id }) => id)).toEqual([1]);
  });
});
