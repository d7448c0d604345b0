import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { freePort, spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

const EVERYTHING = join(import.meta.dir, "..", "..", "..", "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

// A reference server no one here wrote: Express + the SDK, stateful, with an event store.
describe("@modelcontextprotocol/server-everything over Streamable HTTP", () => {
  let server: ServerProcess;
  let client: McpClient;
  let transport: HttpTransport;
  const notifications: JsonRpcNotification[] = [];

  beforeAll(async () => {
    // It takes its port from PORT only, so ask the OS for a free one first.
    const port = freePort();
    server = await spawnServer(["node", EVERYTHING, "streamableHttp"], {
      env: { PORT: String(port) },
      ready: /listening on port (\d+)/,
      path: "/mcp",
    });
    transport = new HttpTransport({ url: server.url, headers: {} });
    client = new McpClient(transport, { timeoutMs: 15_000, onNotification: (n) => notifications.push(n) });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  test("connects with a session and lists its tools", async () => {
    expect(client.state.status).toBe("connected");
    expect(transport.sessionId).toBeString();
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
  });

  test("echo and get-sum answer through McpClient", async () => {
    const echoed = await client.callTool("echo", { message: "hi" });
    expect(echoed.content[0]?.text).toBe("Echo: hi");
    const sum = await client.callTool("get-sum", { a: 2, b: 3 });
    expect(sum.content[0]?.text).toBe("The sum of 2 and 3 is 5.");
  });

  test("a long-running operation's progress arrives on the call's stream before its answer", async () => {
    const seen: string[] = [];
    const progressToken = "progress-1";
    const before = notifications.length;
    const result = (await client.connection.request("tools/call", {
      name: "trigger-long-running-operation",
      arguments: { duration: 0.3, steps: 3 },
      _meta: { progressToken },
    })) as { content: { text: string }[] };
    seen.push(...notifications.slice(before).map((n) => `${n.method}:${(n.params as { progress?: number }).progress}`));
    expect(seen).toEqual(["notifications/progress:1", "notifications/progress:2", "notifications/progress:3"]);
    expect(result.content[0]?.text).toContain("Long running operation completed");
    for (const n of notifications.slice(before)) expect((n.params as { progressToken?: string }).progressToken).toBe(progressToken);
  });
});
