/**
 * The pool's view of resources and prompts: which connected servers offer a feature (in config
 * order), and `notifications/resources/updated` of any server reaching the resource-updated listeners. Real
 * peers: server-everything (everything), server-filesystem (tools only), the bash echo server.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { ECHO_SERVER, EVERYTHING_SERVER, REPO, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const FILESYSTEM_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

const stdio = (name: string, command: string, args: string[] = []): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command, args, env: { PATH: process.env.PATH ?? "" } },
});

describe("ServerPool: servers offering resources and prompts", () => {
  test("serversOffering lists the connected servers that declared the feature, in config order", async () => {
    const pool = new ServerPool([
      stdio("fs", "node", [FILESYSTEM_SERVER, tempDir()]),
      stdio("everything", "node", [EVERYTHING_SERVER, "stdio"]),
      stdio("missing", "/no/such/command"),
      stdio("echo", ECHO_SERVER),
      stdio("everything2", "node", [EVERYTHING_SERVER, "stdio"]),
    ]);
    try {
      await pool.connectAll();
      expect(pool.status().map((s) => s.state)).toEqual(["connected", "connected", "failed", "connected", "connected"]);
      const names = (feature: Parameters<ServerPool["serversOffering"]>[0]) => pool.serversOffering(feature).map((s) => s.name);
      expect(names("resources")).toEqual(["everything", "everything2"]);
      expect(names("resourceSubscriptions")).toEqual(["everything", "everything2"]);
      expect(names("prompts")).toEqual(["everything", "everything2"]);
      expect(names("completions")).toEqual(["everything", "everything2"]);
      const [first] = pool.serversOffering("resources");
      expect(first!.client).toBe(pool.client("everything")!);
      expect((await first!.client.listResources()).length).toBeGreaterThan(0);
    } finally {
      await pool.closeAll();
    }
    expect(pool.serversOffering("resources")).toEqual([]);
  });

  test("a subscribed resource's update reaches the resource-updated listeners with the server's name", async () => {
    const pool = new ServerPool([stdio("everything", "node", [EVERYTHING_SERVER, "stdio"])]);
    const updates: string[] = [];
    pool.on("resource-updated", ({ server, uri }) => updates.push(`${server} ${uri}`));
    try {
      await pool.connectAll();
      const client = pool.client("everything")!;
      await client.subscribeResource("demo://resource/static/document/features.md");
      await client.callTool("toggle-subscriber-updates", {});
      await waitFor(() => updates.length > 0, "the resource-updated listener");
      expect(updates[0]).toBe("everything demo://resource/static/document/features.md");
    } finally {
      await pool.closeAll();
    }
  });

  test("an updated notification without a string uri, or with one over 8 KB, is dropped; the next valid one still arrives", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) });
    const pool = new ServerPool([stdio("mem", "unused")], { createTransport: () => transport });
    const updates: string[] = [];
    pool.on("resource-updated", ({ server, uri }) => updates.push(`${server} ${uri}`));
    try {
      await pool.connectAll();
      transport.serverNotification("notifications/resources/updated", { uri: 7 });
      transport.serverNotification("notifications/resources/updated");
      transport.serverNotification("notifications/resources/updated", { uri: `test://${"x".repeat(9000)}` });
      transport.serverNotification("notifications/resources/updated", { uri: "test://after" });
      await waitFor(() => updates.length > 0, "the valid update");
      expect(updates).toEqual(["mem test://after"]);
    } finally {
      await pool.closeAll();
    }
  });
});
