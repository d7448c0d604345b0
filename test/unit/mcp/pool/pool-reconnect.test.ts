import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { AuthContext } from "../../../../src/mcp/auth/server-authorizer.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import type { TransportContext } from "../../../../src/mcp/transport/create-transport.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";

const http = (name: string): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "http", url: `https://${name}.example/mcp`, headers: {} },
});

/** A server that refuses for want of a sign-in: what the HTTP transport throws on a 401 with nobody to sign in. */
class NeedsAuthTransport extends MemoryTransport {
  constructor() {
    super({});
  }
  override async start(): Promise<void> {
    throw new McpError(undefined, "'linear' (https://linear.example/mcp) needs you to sign in: run cat-code mcp login linear", { kind: "needs-auth" });
  }
}

const serving = (names: string[]) => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: names.map((name) => ({ name })) }) });

describe("ServerPool.reconnect", () => {
  test("a NEEDS-AUTH server connects anew after a sign-in and its tools join every registry", async () => {
    const made: MemoryTransport[] = [];
    const contexts: TransportContext[] = [];
    const auth = { store: {} } as AuthContext;
    const pool = new ServerPool([http("linear")], {
      auth,
      createTransport: (_config, context) => {
        contexts.push(context);
        const transport = made.length === 0 ? new NeedsAuthTransport() : serving(["search", "create"]);
        made.push(transport);
        return transport;
      },
    });
    const changed: [string, number][] = [];
    pool.on("tools-changed", ({ server, tools }) => changed.push([server, tools.length]));
    try {
      await pool.connectAll();
      expect(pool.status()[0]).toMatchObject({ state: "needs-auth", reason: expect.stringContaining("cat-code mcp login linear") });
      const registry = new ToolRegistry();
      const other = new ToolRegistry();
      expect(pool.registerInto(registry)).toBe(0);
      pool.registerInto(other);

      const status = await pool.reconnect("linear");
      expect(status).toMatchObject({ state: "connected", tools: [{ name: "search" }, { name: "create" }] });
      for (const r of [registry, other]) expect(r.list().map((tool) => tool.name)).toEqual(["mcp__linear__search", "mcp__linear__create"]);
      expect(changed).toEqual([["linear", 2]]);
      // The new connection carries the pool's auth, so the tokens just stored are sent.
      expect(contexts.map((context) => context.auth)).toEqual([auth, auth]);
      expect(made[0]?.closed).toBeGreaterThan(0);
    } finally {
      await pool.closeAll();
    }
  });

  test("a connected server's old client is closed and its old tools leave the registry", async () => {
    const made: MemoryTransport[] = [];
    const pool = new ServerPool([http("linear"), http("other")], {
      createTransport: (config) => {
        const transport = config.type === "http" && config.url.includes("other") ? serving(["keep"]) : serving(made.length === 0 ? ["old"] : ["new"]);
        if (!(config.type === "http" && config.url.includes("other"))) made.push(transport);
        return transport;
      },
    });
    try {
      await pool.connectAll();
      const registry = new ToolRegistry();
      pool.registerInto(registry);
      expect(registry.list().map((tool) => tool.name).sort()).toEqual(["mcp__linear__old", "mcp__other__keep"]);
      await pool.reconnect("linear");
      expect(made[0]?.closed).toBeGreaterThan(0);
      expect(registry.list().map((tool) => tool.name).sort()).toEqual(["mcp__linear__new", "mcp__other__keep"]);
      expect(await registry.get("mcp__linear__old")).toBeUndefined();
    } finally {
      await pool.closeAll();
    }
  });

  test("an unknown name changes nothing", async () => {
    const pool = new ServerPool([http("linear")], { createTransport: () => serving(["a"]) });
    try {
      await pool.connectAll();
      expect(await pool.reconnect("nope")).toBeUndefined();
      expect(pool.status()[0]?.state).toBe("connected");
    } finally {
      await pool.closeAll();
    }
  });
});
