import { expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { JsonRpcMessage } from "../../../../src/mcp/protocol.ts";
import type { SendOptions } from "../../../../src/mcp/transport/transport.ts";
import { type Handler, MemoryTransport } from "../../../helpers/memory-transport.ts";

/** An HTTP-kind memory transport that keeps the headers each tools/call was sent with. */
class HttpMemoryTransport extends MemoryTransport {
  readonly kind = "http" as const;
  readonly callHeaders: (Record<string, string> | undefined)[] = [];
  override async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if ("method" in message && message.method === "tools/call") this.callHeaders.push(options?.headers);
    return super.send(message);
  }
}

const discover: Handler = () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
const toolMarked = (header: string) => ({
  name: "query",
  inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": header }, n: { type: "integer", "x-mcp-header": "N" } } },
});

test("on HeaderMismatch the tools are listed again and the call retried once with the new markings", async () => {
  let lists = 0;
  let calls = 0;
  const transport = new HttpMemoryTransport({
    "server/discover": discover,
    "tools/list": () => ({ tools: [toolMarked(lists++ === 0 ? "Region" : "Zone")] }),
    "tools/call": () => {
      if (calls++ === 0) throw new McpError(-32020, "Mcp-Param-Zone is missing");
      return { content: [{ type: "text", text: "ok" }] };
    },
  });
  const client = new McpClient(transport);
  await client.connect();
  await client.listTools();
  const result = await client.callTool("query", { region: "eu", n: 7 });
  expect(result.content).toEqual([{ type: "text", text: "ok" }]);
  expect(transport.callHeaders).toEqual([
    { "Mcp-Param-Region": "eu", "Mcp-Param-N": "7" },
    { "Mcp-Param-Zone": "eu", "Mcp-Param-N": "7" },
  ]);
  expect(lists).toBe(2);
});

test("a second HeaderMismatch fails the call with the server's message; no third try", async () => {
  let calls = 0;
  const transport = new HttpMemoryTransport({
    "server/discover": discover,
    "tools/list": () => ({ tools: [toolMarked("Region")] }),
    "tools/call": () => {
      calls++;
      throw new McpError(-32020, "header and body disagree");
    },
  });
  const client = new McpClient(transport);
  await client.connect();
  const error = await client.callTool("query", { region: "eu" }).catch((e) => e);
  expect(error).toMatchObject({ code: -32020, message: "header and body disagree" });
  expect(calls).toBe(2);
});

test("over HTTP a tool with invalid markings is left out with the reason, the others kept", async () => {
  const transport = new HttpMemoryTransport({
    "server/discover": discover,
    "tools/list": () => ({ tools: [toolMarked("Region"), { name: "bad", inputSchema: { type: "object", properties: { a: { type: "number", "x-mcp-header": "A" } } } }] }),
  });
  const rejected: { name: string; reason: string }[] = [];
  const client = new McpClient(transport, { onRejectedTool: (tool) => rejected.push(tool) });
  await client.connect();
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(["query"]);
  expect(rejected).toEqual([{ name: "bad", reason: expect.stringContaining("must be string, integer or boolean") }]);
});
