/**
 * Many servers starting under an agent session: the session's listener of every server event
 * (which offers the resource tools while some connected server offers resources) and the pool do
 * no work for the servers already there, so N servers start in O(N) (CPU time at N and 8N).
 * In memory: what is measured is cat-code's own work, not pipes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { allowAll } from "../../../src/agent/permission.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { AgentRuntime } from "../../../src/repl/agent-runtime.ts";
import { cpuMs, growthRatio } from "../../helpers/cpu-ratio.ts";
import { MemoryTransport } from "../../helpers/memory-transport.ts";
import { tempDir } from "../../helpers/paths.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A session over `servers` servers of one tool each; the first also offers resources. */
function session(servers: number): AgentRuntime {
  const dir = tempDir("cat-code-many-servers-");
  dirs.push(dir);
  const pool = new ServerPool(
    Array.from({ length: servers }, (_, i) => entry(`s${i}`)),
    {
      createTransport: (config) => {
        const name = (config as { command: string }).command;
        const capabilities = name === "s0" ? { tools: {}, resources: {} } : { tools: {} };
        return new MemoryTransport({
          initialize: () => ({ protocolVersion: "2025-11-25", capabilities, serverInfo: { name, version: "1" } }),
          "tools/list": () => ({ tools: [{ name: "ping", description: `Ping ${name}`, inputSchema: { type: "object" } }] }),
        });
      },
    },
  );
  return new AgentRuntime({ model: "claude-sonnet-4-5", cwd: dir, pool, permissions: allowAll, env: { CAT_CODE_HOME: dir }, promptsBeforeServers: true });
}

/** The CPU milliseconds from the session's connect until every server is connected and its tool registered. */
async function measured(servers: number): Promise<number> {
  const runtime = session(servers);
  const started = cpuMs();
  // With a signal, as the REPL and print mode connect.
  const summary = await runtime.connectMcp(new AbortController().signal);
  const ms = cpuMs() - started;
  expect(summary.connected).toBe(servers);
  expect(runtime.registry.has(`mcp__s${servers - 1}__ping`)).toBe(true);
  expect(runtime.registry.has("list_mcp_resources")).toBe(true);
  await runtime.pool.closeAll();
  return ms;
}

// Linear work gives about 8 (11-17 measured: the collector's share grows a little with the heap);
// the walk over every server at each server's event gave 54-59. Below 1,000 servers a jump in the
// collector's work (10 ms at 250 servers, 200 ms at 2,000, linear from there) would hide it.
const MAX_RATIO = 30;

describe("many servers starting under an agent session", () => {
  test("1,000 servers and 8,000: eight times the servers, not sixty-four times the time", async () => {
    expect(await growthRatio(() => measured(1_000), () => measured(8_000), MAX_RATIO)).toBeLessThan(MAX_RATIO);
  }, 120_000);
});
