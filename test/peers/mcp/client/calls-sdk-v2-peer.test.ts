/**
 * Calls against the official SDK v2's dual-era server (fixtures/sdk-v2/sdk-v2-server.ts), which
 * cat-code speaks in the modern era: its MRTR form (ask_name) and progress (slow_progress), over
 * stdio and over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import type { ProgressUpdate } from "../../../../src/mcp/client/progress.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { BUN, SDK_V2_SERVER } from "../../../helpers/paths.ts";
import { LISTENING_ON_MCP, type ServerProcess, spawnServer } from "../../../helpers/http-server-process.ts";

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

function behaviour(connect: (options: McpClientOptions) => Promise<McpClient>) {
  test("ask_name: the MRTR form is answered and the greeting comes back", async () => {
    const client = await connect({ elicitation: async () => ({ action: "accept", content: { name: "Grace" } }) });
    try {
      expect(client.era).toBe("modern");
      expect(textOf(await client.callTool("ask_name", {}))).toBe("Hello Grace");
    } finally {
      await client.close();
    }
  });

  test("slow_progress: each step reaches onProgress", async () => {
    const client = await connect({});
    try {
      const updates: ProgressUpdate[] = [];
      expect(textOf(await client.callTool("slow_progress", { steps: 2, delayMs: 5 }, { onProgress: (update) => updates.push(update) }))).toBe("done after 2 steps");
      expect(updates.map((update) => update.progress)).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });
}

describe("SDK v2 server over stdio", () => {
  behaviour(async (options) => {
    const client = new McpClient(new StdioTransport({ command: BUN, args: [SDK_V2_SERVER, "--stdio"], env: process.env as Record<string, string> }), { name: "v2", ...options });
    await client.connect();
    return client;
  });
});

describe("SDK v2 server over HTTP", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer([BUN, SDK_V2_SERVER, "--http"], LISTENING_ON_MCP);
  });
  afterAll(() => server?.stop());
  behaviour(async (options) => {
    const client = new McpClient(new HttpTransport({ url: server.url, headers: {} }), { name: "v2", ...options });
    await client.connect();
    return client;
  });
});
