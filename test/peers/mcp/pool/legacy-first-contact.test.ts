/**
 * Issue 26, first contact with every legacy server, against real processes: a stdio server that
 * exits or closes its stdout on the era probe (`server/discover`) is started again and goes straight
 * to initialize, and is remembered as legacy, so the next start sends no probe; an HTTP server that
 * never answers the probe costs the short window, not the whole timeout; a failure names its step;
 * a dual-era server slow to start answers the probe late, and that answer counts; a legacy record
 * is probed again once it is a day old.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROBE_WINDOW_MS } from "../../../../src/mcp/client/era-detection.ts";
import { EraMemory, REPROBE_AFTER_MS } from "../../../../src/mcp/client/era-memory.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { ServerConfig, ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { EraMemoryHandles } from "../../../../src/mcp/pool/era-memory-handles.ts";
import { ServerPool, type ServerStatus } from "../../../../src/mcp/pool/server-pool.ts";
import { createTransport } from "../../../../src/mcp/transport/create-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { BUN, CHAOS_SERVER, SDK_V2_SERVER, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const entry = (config: ServerConfig): ServerEntry => ({ name: "old", scope: "user", source: "test", ok: true, config });
const chaos = (...flags: string[]): ServerConfig => ({ type: "stdio", command: BUN, args: [CHAOS_SERVER, ...flags], env: {}, timeout: BEYOND_THE_TEST_MS });

/** Connects one server in a pool of its own with the era memory in `home`. */
async function connectOnce(config: ServerConfig, home: string): Promise<{ status: ServerStatus }> {
  const pool = new ServerPool([entry(config)], { eraMemory: new EraMemory({ env: { CAT_CODE_HOME: home } }) });
  cleanup.push(() => pool.closeAll());
  await pool.connectAll();
  await pool.closeAll();
  return { status: pool.status()[0]! };
}

/**
 * Longer than each test's own bound: a request that waited for its timeout (a closed stdout left to
 * time out, a probe window as long as the timeout) makes the test fail by its bound, not pass late.
 */
const BEYOND_THE_TEST_MS = 600_000;

/** The method of every line a chaos server recorded, across all the processes that wrote to the file. */
function methods(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line).method ?? "(answer)");
}

const remembered = (home: string) => Object.values(JSON.parse(readFileSync(join(home, "protocol-eras.json"), "utf8")).servers);

describe("a stdio server that does not survive the probe is started again, straight to initialize, and remembered", () => {
  for (const how of ["exit", "close-stdout"]) {
    test(`--unknown-method=${how}: connected as legacy without waiting for a timeout; the next start sends no probe`, async () => {
      const home = tempDir();
      const record = join(tempDir(), "received.jsonl");
      const config = chaos(`--unknown-method=${how}`, `--record=${record}`);

      // A closed stdout used to cost the whole timeout (BEYOND_THE_TEST_MS: the test's bound fails it).
      const first = await connectOnce(config, home);
      expect(first.status).toMatchObject({ state: "connected", era: "legacy", protocolVersion: "2025-11-25" });
      // The probe went to the first process, once; the second one was asked initialize first.
      expect(methods(record)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list"]);
      expect(remembered(home)).toEqual([expect.objectContaining({ era: "legacy", version: "2025-11-25" })]);

      const again = await connectOnce(config, home);
      expect(again.status).toMatchObject({ state: "connected", era: "legacy" });
      expect(methods(record).slice(4)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
    }, 30_000);
  }

  test("one that closes stdout and ignores the end of stdin is not waited for: started again at once, the old one still ended", async () => {
    const signals = join(tempDir(), "signals");
    const record = join(tempDir(), "received.jsonl");
    const config = chaos("--unknown-method=close-stdout", "--linger", `--record=${record}`, `--record-signal=${signals}`);
    const graceMs = 3000;
    // Each close stage waits graceMs: the old process would get its SIGTERM only after the first one.
    const createTransport = (c: ServerConfig) => new StdioTransport({ ...(c as Extract<ServerConfig, { type: "stdio" }>), env: {} }, { closeGraceMs: graceMs });
    const pool = new ServerPool([entry(config)], { eraMemory: new EraMemory({ env: { CAT_CODE_HOME: tempDir() } }), createTransport });
    cleanup.push(() => pool.closeAll());
    await pool.connectAll();
    expect(pool.status()[0]).toMatchObject({ state: "connected", era: "legacy" });
    expect(methods(record)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list"]);
    // Connected while the old process still waits out its first close stage: nobody signalled it yet.
    expect(existsSync(signals)).toBe(false);
    await pool.closeAll();
    // Both processes ended, each by its SIGTERM (they ignore the end of stdin): none left behind.
    expect(readFileSync(signals, "utf8").trim().split("\n")).toEqual(["SIGTERM", "SIGTERM"]);
  }, 30_000);

  // The SDK v2 client (2.4.0) waits out its probe's timeout on the one that closes stdout: not asserted.
  test("the peer's view: the SDK v2 client in auto mode connects to the one that exits (it probes on a throwaway process)", async () => {
    const client = new Client({ name: "sdk-v2-client", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioClientTransport({ command: BUN, args: [CHAOS_SERVER, "--unknown-method=exit"], stderr: "ignore" }));
    cleanup.push(() => client.close());
    expect(client.getProtocolEra()).toBe("legacy");
    expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([{ type: "text", text: "hi" }]);
  });

  test("a server that ends on the probe and on initialize too fails with the step that failed last, and nothing is remembered", async () => {
    const home = tempDir();
    const { status } = await connectOnce(chaos("--unknown-method=exit", "--crash=before-handshake"), home);
    expect(status).toMatchObject({
      state: "failed",
      reason: "initialize failed: the server exited with code 3; its last stderr lines:\nchaos: crashing before the handshake",
    });
    expect(existsSync(join(home, "protocol-eras.json"))).toBe(false);
  });

  test("a server that crashes on tools/list fails with the step named", async () => {
    const { status } = await connectOnce(chaos("--crash=on-list"), tempDir());
    expect(status).toMatchObject({ state: "failed", reason: "tools/list failed: the server exited with code 3; its last stderr lines:\nchaos: crashing on tools/list as asked" });
  });
});

describe("an HTTP server that never answers a method it does not know", () => {
  let server: ServerProcess;
  afterEach(() => server?.stop());

  test(`costs the probe's ${PROBE_WINDOW_MS} ms window, not the timeout, then speaks the handshake`, async () => {
    const record = join(tempDir(), "received.jsonl");
    server = await spawnServer([BUN, CHAOS_SERVER, "--http", "--hang=unknown", `--record=${record}`], { ready: /chaos listening on port (\d+)/, path: "/mcp" });
    // With the window as long as half the timeout, the test's bound would fail it.
    const { status } = await connectOnce({ type: "http", url: server.url, headers: {}, timeout: BEYOND_THE_TEST_MS }, tempDir());
    expect(status).toMatchObject({ state: "connected", era: "legacy" });
    expect(methods(record)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list"]);
  }, 30_000);
});

describe("a dual-era server slow to start (it reads nothing until a file exists)", () => {
  const setUp = () => {
    const ready = join(tempDir(), "ready");
    const config: ServerConfig = { type: "stdio", command: BUN, args: [SDK_V2_SERVER, "--stdio", "--starts-when", ready], env: {} };
    let wallClock = Date.now();
    const eras = new EraMemory({ env: { CAT_CODE_HOME: tempDir() }, now: () => wallClock });
    const handles = new EraMemoryHandles(eras);
    const memory = handles.handleFor(config);
    const connect = async (clock?: FakeClock, whileConnecting?: () => Promise<void>) => {
      const client = new McpClient(createTransport(config), { eraMemory: memory, timeoutMs: 20_000, clock });
      cleanup.push(() => client.close());
      const connecting = client.connect();
      await whileConnecting?.();
      await connecting;
      await handles.settled();
      return client;
    };
    /** Connects while the server is still starting: the fake clock passes the probe's window, then the server starts. */
    const connectSlowly = () => {
      rmSync(ready, { force: true });
      const clock = new FakeClock();
      return connect(clock, async () => {
        await waitFor(() => clock.pending() > 0, "the probe's timeout");
        clock.advance(PROBE_WINDOW_MS + 10);
        writeFileSync(ready, "");
      });
    };
    return { config, eras, memory, connect, connectSlowly, passADay: () => (wallClock += REPROBE_AFTER_MS + 1) };
  };

  test("misses the probe's window and gets the handshake, but its late answer to the probe is remembered: its next slow start waits for the probe and speaks 2026-07-28", async () => {
    const { memory, connectSlowly } = setUp();
    const first = await connectSlowly();
    expect(first.era).toBe("legacy");
    expect(first.protocolVersion).toBe("2025-11-25");
    // The server read the probe once it started and answered it before initialize.
    expect(memory.recall()).toMatchObject({ era: "modern", version: "2026-07-28", stale: false });
    // This connection keeps the era the server pinned it to, and works.
    expect(await first.callTool("echo", { text: "still legacy" })).toMatchObject({ content: [{ type: "text", text: "still legacy" }] });

    // As slow again: remembered as modern, the probe waits past the short window, and is answered.
    const second = await connectSlowly();
    expect(second.era).toBe("modern");
    expect(memory.recall()).toMatchObject({ era: "modern", version: "2026-07-28" });
  }, 30_000);

  test("a legacy record is kept for a day (no probe), then the server is probed again, and is modern", async () => {
    const { config, eras, memory, connect, passADay } = setUp();
    const ready = config.type === "stdio" ? config.args[config.args.length - 1]! : "";
    writeFileSync(ready, "");
    await eras.remember(config, { era: "legacy", version: "2025-11-25" });
    expect((await connect()).era).toBe("legacy");

    passADay();
    expect(memory.recall()?.stale).toBe(true);
    expect((await connect()).era).toBe("modern");
    expect(memory.recall()).toMatchObject({ era: "modern", version: "2026-07-28", stale: false });
  }, 30_000);
});

test("a server remembered as modern that is now silent on the probe waits half the timeout for it, then gets the handshake, and is remembered as legacy", async () => {
  const config = chaos("--hang=unknown");
  const eras = new EraMemory({ env: { CAT_CODE_HOME: tempDir() } });
  await eras.remember(config, { era: "modern", version: "2026-07-28" });
  const handles = new EraMemoryHandles(eras);
  const clock = new FakeClock();
  const client = new McpClient(createTransport(config), { eraMemory: handles.handleFor(config), timeoutMs: 20_000, clock });
  cleanup.push(() => client.close());
  const connecting = client.connect();
  await waitFor(() => clock.pending() > 0, "the probe's timeout");
  // Past the short window the probe is still waited for (a timeout gives its id up at once).
  clock.advance(PROBE_WINDOW_MS + 10);
  expect(client.connection.pendingCount).toBe(1);
  clock.advance(10_000);
  await connecting;
  await handles.settled();
  expect(client.era).toBe("legacy");
  expect(eras.recall(config)).toMatchObject({ era: "legacy", version: "2025-11-25" });
}, 30_000);
