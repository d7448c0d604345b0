import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

const FIXTURE = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "http", "sdk-http-server.ts");

// The official SDK's server transport, in each of the set-ups real servers use.
for (const mode of ["sse", "json", "stateless"] as const) {
  describe(`the SDK's Streamable HTTP server (${mode})`, () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await spawnServer([process.execPath, FIXTURE, "--mode", mode, "--add-tool"], { ready: /PORT (\d+)/, path: "/mcp" });
    });
    afterAll(() => server?.stop());

    async function connected(notifications: JsonRpcNotification[] = []): Promise<McpClient> {
      const client = new McpClient(new HttpTransport({ url: server.url, headers: { "X-Test": mode } }), {
        timeoutMs: 10_000,
        onNotification: (n) => notifications.push(n),
      });
      await client.connect();
      return client;
    }

    test("the handshake agrees on the latest protocol version", async () => {
      const client = await connected();
      try {
        expect(client.state.status).toBe("connected");
        expect(client.protocolVersion).toBe("2025-11-25");
        expect(client.serverInfo?.name).toBe("sdk-http-fixture");
      } finally {
        await client.close();
      }
    });

    test("tools are listed and called through McpClient", async () => {
      const client = await connected();
      try {
        const tools = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(["add", "add-tool", "chatty", "echo"]);
        expect(tools.find((t) => t.name === "echo")?.annotations?.readOnlyHint).toBe(true);
        const echoed = await client.callTool("echo", { message: "hi 你好" });
        expect(echoed.content).toEqual([{ type: "text", text: "hi 你好" }]);
        const sum = await client.callTool("add", { a: 2, b: 40 });
        expect(sum.content[0]?.text).toBe("42");
      } finally {
        await client.close();
      }
    });

    test("a bad argument comes back as a tool error, not a transport failure", async () => {
      const client = await connected();
      try {
        const result = await client.callTool("add", { a: "two" });
        expect(result.isError).toBe(true);
        expect(client.state.status).toBe("connected");
      } finally {
        await client.close();
      }
    });

    test("concurrent calls are each answered with their own result", async () => {
      const client = await connected();
      try {
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => client.callTool("add", { a: i, b: 1 })));
        expect(results.map((r) => r.content[0]?.text)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
      } finally {
        await client.close();
      }
    });

    if (mode === "sse") {
      test("a notification and a ping from the server on the call's stream are handled before its result", async () => {
        const notifications: JsonRpcNotification[] = [];
        const client = await connected(notifications);
        try {
          const result = await client.callTool("chatty", {});
          // The tool answers only after our answer to its ping arrived.
          expect(result.content[0]?.text).toBe("pinged");
          expect(notifications.map((n) => n.method)).toContain("notifications/message");
        } finally {
          await client.close();
        }
      });
    }

    if (mode !== "stateless") {
      test("a tool registered at run time is announced on the standalone GET stream and reaches onNotification", async () => {
        const notifications: JsonRpcNotification[] = [];
        const transport = new HttpTransport({ url: server.url, headers: {} });
        const client = new McpClient(transport, { timeoutMs: 10_000, onNotification: (n) => notifications.push(n) });
        await client.connect();
        try {
          // The SDK declares tools.listChanged; it drops list_changed when no GET stream is open, so wait for it.
          await waitFor(() => transport.notificationStreamState === "open", "the GET stream to open");
          expect((await client.listTools()).map((t) => t.name)).not.toContain("late-tool");
          const added = await client.callTool("add-tool", { name: "late-tool" });
          expect(added.content[0]?.text).toBe("added late-tool");
          await waitFor(() => notifications.some((n) => n.method === "notifications/tools/list_changed"), "list_changed");
          // The client dropped its cached list on hearing it.
          expect((await client.listTools()).map((t) => t.name)).toContain("late-tool");
          expect((await client.callTool("late-tool", {})).content[0]?.text).toBe("late-tool");
          expect(transport.notificationStreamState).toBe("open");
        } finally {
          await client.close();
        }
      });

      test("close ends the session on the server: its id is refused afterwards", async () => {
        const transport = new HttpTransport({ url: server.url, headers: {} });
        const client = new McpClient(transport);
        await client.connect();
        const sessionId = transport.sessionId;
        expect(sessionId).toBeString();
        await client.close();
        const after = await fetch(server.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "Mcp-Session-Id": sessionId!,
            "MCP-Protocol-Version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        await after.body?.cancel();
        expect(after.status).toBe(404);
      });

      test("a session the server forgot is replaced without the caller noticing", async () => {
        const transport = new HttpTransport({ url: server.url, headers: {} });
        const client = new McpClient(transport);
        await client.connect();
        try {
          const first = transport.sessionId;
          const expire = await fetch(new URL("/admin/expire", server.url), { method: "POST" });
          expect(expire.status).toBe(204);
          const echoed = await client.callTool("echo", { message: "still here" });
          expect(echoed.content[0]?.text).toBe("still here");
          expect(transport.sessionId).toBeString();
          expect(transport.sessionId).not.toBe(first);
          // The GET stream followed the session to the new one.
          await waitFor(() => transport.notificationStreamState === "open", "the GET stream to reopen");
        } finally {
          await client.close();
        }
      });
    }
  });
}
