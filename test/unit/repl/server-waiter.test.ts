import { expect, test } from "bun:test";
import { WaitForServersTool } from "../../../src/agent/tools/wait-for-servers-tool.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { poolServerWaiter } from "../../../src/repl/server-waiter.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { initializeHandler, MemoryTransport } from "../../helpers/memory-transport.ts";

const http = (name: string, timeout?: number): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "http", url: `https://${name}.example/mcp`, headers: {}, ...(timeout ? { timeout } : {}) } });

/** A pool whose servers answer `initialize` only when the test releases them (or fail, for `broken`). */
function gatedPool(entries: ServerEntry[]) {
  const gates = new Map<string, () => void>();
  const pool = new ServerPool(entries, {
    createTransport: (config) => {
      const name = config.type === "http" ? new URL(config.url).hostname.split(".")[0]! : "?";
      return new MemoryTransport({
        initialize: (params) =>
          new Promise((resolve, reject) => gates.set(name, () => (name === "broken" ? reject(new Error("no database")) : resolve(initializeHandler()(params, { id: 0, method: "initialize" }))))),
        "tools/list": () => ({ tools: [{ name: "search" }] }),
      });
    },
  });
  const release = async (name: string) => (await waitFor(() => gates.get(name), `${name}'s initialize`))();
  return { pool, release };
}

test("the tool waits for the named servers' events and says which connected and which failed", async () => {
  const { pool, release } = gatedPool([http("tracker"), http("broken"), http("other")]);
  const tool = new WaitForServersTool(poolServerWaiter(pool, new FakeClock()));
  const connecting = pool.connectAll();
  try {
    const waiting = tool.execute({ servers: ["tracker", "broken", "nope"] });
    await release("tracker");
    await release("broken");
    expect(await waiting).toEqual({ content: "Connected: tracker (1 tool(s), mcp__tracker__*)\nFailed: broken (no database)\nNo such server: nope", isError: false });
  } finally {
    await release("other");
    await connecting;
    await pool.closeAll();
  }
});

test("the wait is bounded by the longest connect timeout (60 s by default): what is still connecting is said", async () => {
  const clock = new FakeClock();
  const { pool, release } = gatedPool([http("slow", 90_000)]);
  const waiter = poolServerWaiter(pool, clock);
  const connecting = pool.connectAll();
  try {
    expect(waiter.boundMs).toBe(90_000);
    let done = false;
    const waiting = new WaitForServersTool(waiter).execute({}).then((result) => ((done = true), result));
    clock.advance(89_999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    expect(await waiting).toEqual({ content: "Still connecting: slow", isError: false });
  } finally {
    await release("slow");
    await connecting;
    await pool.closeAll();
  }
});

test("Esc (the turn's signal) ends the wait at once", async () => {
  const { pool, release } = gatedPool([http("slow")]);
  const connecting = pool.connectAll();
  try {
    const controller = new AbortController();
    const waiting = new WaitForServersTool(poolServerWaiter(pool, new FakeClock())).execute({}, { signal: controller.signal });
    controller.abort();
    expect(await waiting).toEqual({ content: "Error: cancelled by the user while waiting; so far: Still connecting: slow", isError: true });
  } finally {
    await release("slow");
    await connecting;
    await pool.closeAll();
  }
});

test("with nothing connecting the tool answers at once", async () => {
  const { pool } = gatedPool([]);
  expect(await new WaitForServersTool(poolServerWaiter(pool)).execute({})).toEqual({ content: "No MCP server is still connecting: every server's tools that could be available are.", isError: false });
});
