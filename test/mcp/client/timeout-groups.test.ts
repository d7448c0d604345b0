import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TimeoutGroups } from "../../../src/mcp/client/timeout-groups.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { BUN, REPO, tempDir } from "../../helpers/paths.ts";

function abortedAfter(signal: AbortSignal): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(performance.now() - started), { once: true }));
}

describe("TimeoutGroups", () => {
  test("requests of one method and timeout started together share one signal", () => {
    const groups = new TimeoutGroups();
    const a = groups.acquire("tools/call", 1000);
    const b = groups.acquire("tools/call", 1000);
    const other = groups.acquire("tools/list", 1000);
    expect(b.signal).toBe(a.signal);
    expect(other.signal).not.toBe(a.signal);
    for (const group of [a, b, other]) groups.release(group);
  });

  test("a request never times out early, and at most the window late", async () => {
    const groups = new TimeoutGroups();
    const first = groups.acquire("tools/call", 100);
    await Bun.sleep(8);
    const late = groups.acquire("tools/call", 100);
    const elapsed = await abortedAfter(late.signal);
    expect(late.signal).toBe(first.signal);
    expect(elapsed).toBeGreaterThanOrEqual(99);
    expect((late.signal.reason as McpError).message).toBe("tools/call timed out after 100 ms");
    groups.release(first);
    groups.release(late);
  });

  test("after the window a request starts a new group with its own full timeout", async () => {
    const groups = new TimeoutGroups();
    const first = groups.acquire("ping", 50);
    await Bun.sleep(20);
    const second = groups.acquire("ping", 50);
    expect(second.signal).not.toBe(first.signal);
    const elapsed = await abortedAfter(second.signal);
    expect(elapsed).toBeGreaterThanOrEqual(49);
    groups.release(first);
    groups.release(second);
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
