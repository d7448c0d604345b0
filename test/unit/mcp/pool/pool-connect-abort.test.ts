import { expect, test } from "bun:test";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { MemoryTransport } from "../../../helpers/memory-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });

test("aborting connectAll's signal gives up every connect under way (each has a signal of its own, fed by one listener)", async () => {
  const transports: MemoryTransport[] = [];
  const pool = new ServerPool([entry("a"), entry("b"), entry("c")], {
    createTransport: () => {
      // A server that never answers its handshake.
      const transport = new MemoryTransport({ initialize: () => new Promise(() => {}) });
      transports.push(transport);
      return transport;
    },
  });
  const controller = new AbortController();
  const connecting = pool.connectAll({ signal: controller.signal });
  await waitFor(() => transports.length === 3 && transports.every((t) => t.sent.some((m) => m.method === "initialize")), "every handshake sent");
  controller.abort();
  await connecting;
  expect(pool.status().map((status) => status.state)).toEqual(["failed", "failed", "failed"]);
  await pool.closeAll();
});

test("a signal aborted before connectAll starts no server", async () => {
  const transports: MemoryTransport[] = [];
  const pool = new ServerPool([entry("a"), entry("b")], {
    createTransport: () => {
      const transport = new MemoryTransport({ initialize: () => new Promise(() => {}) });
      transports.push(transport);
      return transport;
    },
  });
  await pool.connectAll({ signal: AbortSignal.abort() });
  expect(pool.status().map((status) => status.state)).not.toContain("connected");
  expect(transports.flatMap((t) => t.sent.filter((m) => m.method === "initialize"))).toEqual([]);
  await pool.closeAll();
});
