import { describe, expect, test } from "bun:test";
import { ProbeWindow } from "../../../../src/mcp/client/probe-window.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";

describe("ProbeWindow", () => {
  test("runs out after its time, with the method's timeout as the reason", () => {
    const clock = new FakeClock();
    const window = new ProbeWindow(clock, "server/discover", 1500);
    clock.advance(1499);
    expect(window.signal.aborted).toBe(false);
    clock.advance(1);
    expect(window.expired()?.message).toBe("server/discover timed out after 1500 ms");
  });

  test("stands still while OAuth waits (nested waits too), and goes on with the time that was left", () => {
    const clock = new FakeClock();
    const window = new ProbeWindow(clock, "server/discover", 1500);
    clock.advance(1000);
    window.authorizing(true);
    window.authorizing(true);
    clock.advance(8000);
    window.authorizing(false);
    clock.advance(8000);
    expect(window.signal.aborted).toBe(false);
    window.authorizing(false);
    clock.advance(499);
    expect(window.signal.aborted).toBe(false);
    clock.advance(1);
    expect(window.expired()?.isTimeout).toBe(true);
  });

  test("once ended it never fires, and a late 'done waiting' starts nothing", () => {
    const clock = new FakeClock();
    const window = new ProbeWindow(clock, "server/discover", 1500);
    window.authorizing(true);
    window.end();
    window.authorizing(false);
    clock.advance(10_000);
    expect(window.expired()).toBeUndefined();
    expect(clock.pending()).toBe(0);
  });
});
