import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { withDisabledServers } from "../../../../src/mcp/config/configured-servers.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";

const http = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "http", url: `https://${name}.example/mcp`, headers: {} } });

function poolOf(entries: ServerEntry[]) {
  const made: Record<string, MemoryTransport[]> = {};
  const pool = new ServerPool(entries, {
    createTransport: (config) => {
      const name = config.type === "http" ? new URL(config.url).hostname.split(".")[0]! : "?";
      const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [{ name: "search" }, { name: "create" }] }) });
      (made[name] ??= []).push(transport);
      return transport;
    },
  });
  return { pool, made };
}

const names = (registry: ToolRegistry) => registry.list().map((tool) => tool.name);

describe("ServerPool.disable / enable", () => {
  test("disabling takes the server's tools out of every registry at once and closes its connection; the others stay", async () => {
    const { pool, made } = poolOf([http("tracker"), http("docs")]);
    try {
      await pool.connectAll();
      const registry = new ToolRegistry();
      pool.registerInto(registry);
      expect(names(registry)).toHaveLength(4);

      expect(await pool.disable("tracker")).toBe(true);
      expect(names(registry)).toEqual(["mcp__docs__search", "mcp__docs__create"]);
      expect(made.tracker![0]!.closed).toBeGreaterThan(0);
      expect(pool.status().map((status) => [status.name, status.state])).toEqual([["tracker", "disabled"], ["docs", "connected"]]);
      // A reconnect does not start a disabled server.
      expect(await pool.reconnect("tracker")).toMatchObject({ state: "disabled" });
      expect(made.tracker).toHaveLength(1);

      expect(await pool.enable("tracker")).toMatchObject({ state: "connected" });
      expect(names(registry).sort()).toEqual(["mcp__docs__create", "mcp__docs__search", "mcp__tracker__create", "mcp__tracker__search"]);
      expect(made.tracker).toHaveLength(2);
    } finally {
      await pool.closeAll();
    }
  });

  test("a server disabled by the project's settings is never started, and enable starts it", async () => {
    const { pool, made } = poolOf(withDisabledServers([http("tracker"), http("docs")], ["tracker"]));
    try {
      await pool.connectAll();
      expect(pool.status()[0]).toMatchObject({ name: "tracker", state: "disabled" });
      expect(made.tracker).toBeUndefined();
      expect(await pool.enable("tracker")).toMatchObject({ state: "connected" });
    } finally {
      await pool.closeAll();
    }
  });

  test("disabling a server while it connects leaves no connection behind", async () => {
    const { pool, made } = poolOf([http("tracker")]);
    try {
      const connecting = pool.connectAll();
      await pool.disable("tracker");
      await connecting;
      expect(pool.status()[0]).toMatchObject({ state: "disabled" });
      expect(made.tracker![0]!.closed).toBeGreaterThan(0);
    } finally {
      await pool.closeAll();
    }
  });

  test("unknown names: disable says false, enable undefined", async () => {
    const { pool } = poolOf([http("docs")]);
    expect(await pool.disable("nope")).toBe(false);
    expect(await pool.enable("nope")).toBeUndefined();
    await pool.closeAll();
  });
});
