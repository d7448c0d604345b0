/**
 * What happens inside a call against a real modern-only server (fixtures/modern/modern-server.ts),
 * over stdio and over stateless HTTP: MRTR forms and roots, progress, per-request logs, and (HTTP
 * only) x-mcp-header markings and headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import type { ProgressUpdate } from "../../../../src/mcp/client/progress.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import type { ServerLogEntry } from "../../../../src/mcp/client/server-log.ts";
import type { RejectedTool } from "../../../../src/mcp/client/tool-definitions.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { BUN, MODERN_SERVER, tempDir } from "../../../helpers/paths.ts";
import { LISTENING_ON_MCP, type ServerProcess, spawnServer } from "../../../helpers/http-server-process.ts";

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

type Connect = (options: McpClientOptions) => Promise<McpClient>;

function sharedBehaviour(connect: Connect) {
  test("ask_name: the form is answered by the handler and the greeting comes back", async () => {
    const client = await connect({
      elicitation: async (request) => {
        expect(request).toMatchObject({ server: "modern", mode: "form", message: "What is your name?" });
        return { action: "accept", content: { name: "Grace", color: "blue", formal: true } };
      },
    });
    expect(textOf(await client.callTool("ask_name", {}))).toBe("Good day Grace (blue)");
    await client.close();
  });

  test("ask_name declined and cancelled", async () => {
    for (const [action, text] of [["decline", "You declined to give your name."], ["cancel", "You cancelled the question."]] as const) {
      const client = await connect({ elicitation: async () => ({ action }) });
      expect(textOf(await client.callTool("ask_name", {}))).toBe(text);
      await client.close();
    }
  });

  test("list_roots: the roots go back as the input response", async () => {
    const dir = tempDir("cat-code-modern-roots-");
    const client = await connect({ roots: new RootsProvider(dir) });
    expect(textOf(await client.callTool("list_roots", {}))).toContain(`(${basename(dir)})`);
    await client.close();
  });

  test("slow_progress: every step reaches onProgress, in order", async () => {
    const client = await connect({});
    const updates: ProgressUpdate[] = [];
    const result = await client.callTool("slow_progress", { steps: 3, delayMs: 5 }, { onProgress: (update) => updates.push(update) });
    expect(textOf(result)).toBe("done after 3 steps");
    expect(updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} of 3` })));
    await client.close();
  });

  test("slow_progress outlives its timeout while it reports progress", async () => {
    // 4 steps 400 ms apart: 1.6 s in all, past the 1 s timeout, each step well within it.
    const client = await connect({ timeoutMs: 1000 });
    const result = await client.callTool("slow_progress", { steps: 4, delayMs: 400 });
    expect(textOf(result)).toBe("done after 4 steps");
    await client.close();
  });

  test("log_something: the warning asked for reaches onLog, the debug line does not", async () => {
    const logs: ServerLogEntry[] = [];
    const client = await connect({ onLog: (entry) => logs.push(entry) });
    expect(textOf(await client.callTool("log_something", {}))).toBe("logged 1 message(s)");
    expect(logs).toEqual([{ server: "modern", level: "warning", logger: "modern-fixture", data: "something to look at" }]);
    await client.close();
  });
}

describe("modern server over stdio", () => {
  const connect: Connect = async (options) => {
    const transport = new StdioTransport({ command: BUN, args: [MODERN_SERVER, "--stdio"], env: process.env as Record<string, string> });
    const client = new McpClient(transport, { name: "modern", ...options });
    await client.connect();
    expect(client.era).toBe("modern");
    return client;
  };
  sharedBehaviour(connect);

  test("x-mcp-header is not checked over stdio: bad_header stays listed", async () => {
    const client = await connect({});
    expect((await client.listTools()).map((tool) => tool.name)).toContain("bad_header");
    await client.close();
  });
});

describe("modern server over HTTP", () => {
  let server: ServerProcess;
  let recordFile: string;
  beforeAll(async () => {
    recordFile = join(tempDir(), "requests.jsonl");
    server = await spawnServer([BUN, MODERN_SERVER, "--http", "--record", recordFile], LISTENING_ON_MCP);
  });
  afterAll(() => server?.stop());

  const connect: Connect = async (options) => {
    const client = new McpClient(new HttpTransport({ url: server.url, headers: {} }), { name: "modern", ...options });
    await client.connect();
    expect(client.era).toBe("modern");
    return client;
  };
  sharedBehaviour(connect);

  test("bad_header is left out with the reason; region_query's region travels in Mcp-Param-Region", async () => {
    const rejected: RejectedTool[] = [];
    const client = await connect({ onRejectedTool: (tool) => rejected.push(tool) });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toContain("region_query");
    expect(names).not.toContain("bad_header");
    expect(rejected).toEqual([{ name: "bad_header", reason: expect.stringContaining('property "amount"') }]);
    expect(textOf(await client.callTool("region_query", { region: "Zürich", query: "q" }))).toBe("region=Zürich query=q");
    const recorded = readFileSync(recordFile, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const call = recorded.findLast((entry) => entry.method === "tools/call");
    const headers = Object.fromEntries(Object.entries(call.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers["mcp-param-region"]).toBe(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    await client.close();
  });
});
