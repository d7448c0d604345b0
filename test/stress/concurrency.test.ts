/**
 * Nothing lost: many calls in flight on one stdio connection each get their own answer, and a
 * second server crashing under the same load fails its own pending calls at once, touching nothing else.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { parseServerEntry } from "../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../src/mcp/pool/server-pool.ts";
import { BUN, CHAOS_SERVER } from "../helpers/paths.ts";

/** Far longer than the calls take, so that a call left waiting for its timeout stands out. */
const CALL_TIMEOUT_MS = 20_000;

const pools: ServerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.closeAll()));
});

function pool(servers: Record<string, string[]>): ServerPool {
  const entries = Object.entries(servers).map(([name, flags]) =>
    parseServerEntry(name, { command: BUN, args: [CHAOS_SERVER, ...flags], timeout: CALL_TIMEOUT_MS }, "user", "test", process.env),
  );
  const created = new ServerPool(entries);
  pools.push(created);
  return created;
}

interface Settled {
  ok: boolean;
  text: string;
  at: number;
}

function settle(promise: Promise<{ content: unknown[] }>): Promise<Settled> {
  return promise.then(
    (result) => ({ ok: true, text: (result.content[0] as { text: string }).text, at: performance.now() }),
    (error: Error) => ({ ok: false, text: error.message, at: performance.now() }),
  );
}

describe("nothing lost under load", () => {
  test("500 concurrent calls on one connection, answered in random order, and a second server crashing at its 200th call", async () => {
    const servers = pool({ steady: ["--shuffle=50"], doomed: ["--crash-after-calls=200"] });
    await servers.connectAll();
    expect(servers.status().map((s) => s.state)).toEqual(["connected", "connected"]);
    const steady = servers.client("steady")!;
    const doomed = servers.client("doomed")!;
    const steadyCalls: Promise<Settled>[] = [];
    const doomedCalls: Promise<Settled>[] = [];
    for (let i = 0; i < 500; i++) {
      steadyCalls.push(settle(steady.callTool("echo", { text: `steady ${i}` })));
      doomedCalls.push(settle(doomed.callTool("echo", { text: `doomed ${i}` })));
    }
    const sentAt = performance.now();
    const [steadyResults, doomedResults] = await Promise.all([Promise.all(steadyCalls), Promise.all(doomedCalls)]);

    steadyResults.forEach((result, i) => expect(result).toMatchObject({ ok: true, text: `steady ${i}` }));

    const answered = doomedResults.filter((r) => r.ok);
    const failed = doomedResults.filter((r) => !r.ok);
    answered.forEach((result) => expect(result.text).toBe(`doomed ${doomedResults.indexOf(result)}`));
    // The 200th call crashed it: everything from there on was pending, and fails with the exit.
    expect(answered.length).toBeLessThan(200);
    expect(failed.length).toBeGreaterThan(300);
    for (const result of failed) expect(result.text).toStartWith("the server exited with code 3");
    // At once, with the exit: a call left to its timeout would fail CALL_TIMEOUT_MS after it was
    // sent. The bound only tells the two apart; how fast it is belongs to the benchmark.
    const lastFailureMs = Math.max(...failed.map((r) => r.at)) - sentAt;
    expect(lastFailureMs).toBeLessThan(CALL_TIMEOUT_MS / 4);
    // A call made after the crash fails at once the same way, and the other server is still fine.
    await expect(doomed.callTool("echo", { text: "late" })).rejects.toThrow("exited with code 3");
    // (It answers in batches of 50.)
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => steady.callTool("echo", { text: `after ${i}` })));
    after.forEach((result, i) => expect(result).toMatchObject({ content: [{ text: `after ${i}` }] }));
  });
});
