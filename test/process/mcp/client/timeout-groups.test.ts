import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MAX_WINDOW_MS, TimeoutGroups } from "../../../../src/mcp/client/timeout-groups.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { BUN, REPO, tempDir } from "../../../helpers/paths.ts";

describe("TimeoutGroups", () => {
  test("requests of one method and timeout started together share one signal", () => {
    const groups = new TimeoutGroups(new FakeClock());
    const a = groups.acquire("tools/call", 1000);
    const b = groups.acquire("tools/call", 1000);
    const other = groups.acquire("tools/list", 1000);
    expect(b.signal).toBe(a.signal);
    expect(other.signal).not.toBe(a.signal);
    for (const group of [a, b, other]) groups.release(group);
  });

  test("a request never times out early, and at most the window late", () => {
    const clock = new FakeClock();
    const groups = new TimeoutGroups(clock);
    // Timeout 100 ms: the window is a tenth of it, 10 ms. The first request starts at 0 ms.
    const first = groups.acquire("tools/call", 100);
    clock.advance(8);
    const late = groups.acquire("tools/call", 100);
    expect(late.signal).toBe(first.signal);
    // The late request (started at 8 ms) is not given up before its full 100 ms...
    clock.advance(99.999);
    expect(late.signal.aborted).toBe(false);
    // ...and the group ends at the end of its window plus the timeout: 110 ms, which is 102 ms
    // after the late start and 110 ms after the first, both within timeout + window.
    clock.advance(2.001);
    expect(clock.now()).toBe(110);
    expect(late.signal.aborted).toBe(true);
    expect((late.signal.reason as McpError).message).toBe("tools/call timed out after 100 ms");
    groups.release(first);
    groups.release(late);
  });

  test(`the window is at most ${MAX_WINDOW_MS} ms, however long the timeout`, () => {
    const clock = new FakeClock();
    const groups = new TimeoutGroups(clock);
    const first = groups.acquire("tools/call", 30_000);
    clock.advance(MAX_WINDOW_MS - 0.001);
    expect(groups.acquire("tools/call", 30_000).signal).toBe(first.signal);
    clock.advance(30_000);
    expect(first.signal.aborted).toBe(false);
    clock.advance(0.001);
    expect(first.signal.aborted).toBe(true);
  });

  test("after the window a request starts a new group with its own full timeout", () => {
    const clock = new FakeClock();
    const groups = new TimeoutGroups(clock);
    // Timeout 50 ms: a 5 ms window. The second request starts at 20 ms, after it closed.
    const first = groups.acquire("ping", 50);
    clock.advance(20);
    const second = groups.acquire("ping", 50);
    expect(second.signal).not.toBe(first.signal);
    clock.advance(35);
    expect([first.signal.aborted, second.signal.aborted]).toEqual([true, false]);
    clock.advance(19.999);
    expect(second.signal.aborted).toBe(false);
    clock.advance(0.001);
    expect(second.signal.aborted).toBe(true);
    groups.release(first);
    groups.release(second);
  });

  test("a settled request's group no longer holds the process, and a closed group's timer is cleared", () => {
    const clock = new FakeClock();
    const groups = new TimeoutGroups(clock);
    const group = groups.acquire("tools/call", 1000);
    expect(clock.pending({ referenced: true })).toBe(1);
    groups.release(group);
    // Still open for joiners, so still there, but unreferenced.
    expect([clock.pending(), clock.pending({ referenced: true })]).toEqual([1, 0]);
    clock.advance(MAX_WINDOW_MS);
    groups.release(groups.acquire("tools/call", 1000));
    expect(clock.pending()).toBe(1);
  });

  test("a released group's timer does not keep the process alive", async () => {
    const script = join(tempDir(), "release.ts");
    await Bun.write(
      script,
      `import { TimeoutGroups } from ${JSON.stringify(join(REPO, "src/mcp/client/timeout-groups.ts"))};
       const groups = new TimeoutGroups();
       groups.release(groups.acquire("tools/call", 60_000));
       console.log("released");`,
    );
    const started = performance.now();
    const child = Bun.spawn([BUN, script], { stdout: "pipe" });
    const timer = setTimeout(() => child.kill(), 20_000);
    const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    clearTimeout(timer);
    expect([out.trim(), code]).toEqual(["released", 0]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
