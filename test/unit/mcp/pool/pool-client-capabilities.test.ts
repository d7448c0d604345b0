import { describe, expect, test } from "bun:test";
import type { McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import type { ServerLogEntry } from "../../../../src/mcp/client/server-log.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { tempDir } from "../../../helpers/paths.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });

function memoryPool(names: string[], options: ConstructorParameters<typeof ServerPool>[1] = {}) {
  return new ServerPool(names.map(entry), {
    ...options,
    createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) }),
  });
}

/**
 * The options the pool gave a server's client. McpClient acts on them in the next round (it answers
 * roots/list and parses notifications/message); until then this is where the wiring shows.
 */
function clientOptions(pool: ServerPool, name: string): McpClientOptions {
  return (pool.client(name) as unknown as { options: McpClientOptions }).options;
}

describe("the pool hands each client the client capabilities", () => {
  test("every client gets the same RootsProvider", async () => {
    const roots = new RootsProvider(tempDir());
    const pool = memoryPool(["a", "b"], { roots });
    try {
      await pool.connectAll();
      expect(clientOptions(pool, "a").roots).toBe(roots);
      expect(clientOptions(pool, "b").roots).toBe(roots);
    } finally {
      await pool.closeAll();
    }
  });

  test("each client's onLog names its server; a log listener hears every entry and the debug log has it", async () => {
    const heard: ServerLogEntry[] = [];
    const pool = memoryPool(["files", "db"]);
    pool.on("log", (logged) => heard.push(logged));
    try {
      await pool.connectAll();
      const lines = await debugLines(() => {
        clientOptions(pool, "files").onLog?.({ server: "memory: test", level: "warning", logger: "indexer", data: "disk almost full" });
        clientOptions(pool, "db").onLog?.({ server: "memory: test", level: "debug", data: "query took 3 ms" });
      });
      expect(heard).toEqual([
        { server: "files", level: "warning", logger: "indexer", data: "disk almost full" },
        { server: "db", level: "debug", data: "query took 3 ms" },
      ]);
      expect(lines).toEqual(["MCP server 'files' logged (warning) indexer: disk almost full", "MCP server 'db' logged (debug): query took 3 ms"]);
    } finally {
      await pool.closeAll();
    }
  });

  test("a log listener can be added after the pool is made (the REPL does so once it starts)", async () => {
    const pool = memoryPool(["files"]);
    const heard: string[] = [];
    try {
      await pool.connectAll();
      pool.on("log", (logged) => heard.push(`${logged.server}: ${logged.data}`));
      clientOptions(pool, "files").onLog?.({ server: "x", level: "error", data: "boom" });
      expect(heard).toEqual(["files: boom"]);
    } finally {
      await pool.closeAll();
    }
  });
});
