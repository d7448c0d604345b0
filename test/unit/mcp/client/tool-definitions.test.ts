import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { MAX_RESULT_DEPTH, MAX_TOOL_DEPTH } from "../../../../src/system/json-depth.ts";
import type { RejectedTool } from "../../../../src/mcp/client/tool-definitions.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { nestedObject } from "../../../helpers/nested-object.ts";

const healthy = { name: "healthy", inputSchema: { type: "object", properties: { text: { type: "string" } } } };

async function listWith(tools: unknown[], pages = 1): Promise<{ names: string[]; rejected: RejectedTool[] }> {
  const rejected: RejectedTool[] = [];
  const perPage = Math.ceil(tools.length / pages);
  const client = new McpClient(
    new MemoryTransport({
      initialize: initializeHandler(),
      "tools/list": (params) => {
        const start = Number(params.cursor ?? 0);
        const next = start + perPage < tools.length ? String(start + perPage) : undefined;
        return { tools: tools.slice(start, start + perPage), ...(next ? { nextCursor: next } : {}) };
      },
    }),
    { onRejectedTool: (tool) => rejected.push(tool) },
  );
  await client.connect();
  const names = (await client.listTools()).map((tool) => tool.name);
  return { names, rejected };
}

describe("tools/list: each tool is checked on its own", () => {
  test("a tool whose schema is nested 60,000 levels is left out, named, and the others are kept", async () => {
    const deep = { name: "deep", inputSchema: { type: "object", properties: { x: nestedObject(60_000) } } };
    expect(await listWith([healthy, deep, { ...healthy, name: "after" }])).toEqual({
      names: ["healthy", "after"],
      rejected: [{ name: "deep", reason: `its definition is nested deeper than ${MAX_TOOL_DEPTH} levels` }],
    });
  });

  test(`a definition exactly ${MAX_TOOL_DEPTH} levels deep is kept`, async () => {
    // The tool (1), inputSchema (2), properties (3), then 61 more levels.
    const atLimit = { name: "at-limit", inputSchema: { type: "object", properties: { x: nestedObject(MAX_TOOL_DEPTH - 3) } } };
    const overLimit = { name: "over-limit", inputSchema: { type: "object", properties: { x: nestedObject(MAX_TOOL_DEPTH - 2) } } };
    const { names, rejected } = await listWith([atLimit, overLimit]);
    expect(names).toEqual(["at-limit"]);
    expect(rejected.map((tool) => tool.name)).toEqual(["over-limit"]);
  });

  test("a definition over 1 MB is left out with its size", async () => {
    const huge = { name: "huge", description: "d".repeat(1_500_000), inputSchema: { type: "object" } };
    expect(await listWith([huge, healthy])).toEqual({
      names: ["healthy"],
      rejected: [{ name: "huge", reason: "its definition is 1.5 MB, more than the 1 MB allowed" }],
    });
  });

  test('an inputSchema without "type": "object" at the root is left out, as the model API would refuse it', async () => {
    const { names, rejected } = await listWith([{ name: "untyped", inputSchema: { properties: {} } }, { name: "array", inputSchema: { type: "array" } }, healthy]);
    expect(names).toEqual(["healthy"]);
    expect(rejected).toEqual([
      { name: "untyped", reason: 'its inputSchema has no "type": "object" at the root, which the model API requires' },
      { name: "array", reason: 'its inputSchema has no "type": "object" at the root, which the model API requires' },
    ]);
  });

  test("a malformed tool is left out by its place in the list when it has no name, across pages", async () => {
    const { names, rejected } = await listWith([healthy, { ...healthy, name: "b" }, { inputSchema: { type: "object" } }, 42], 2);
    expect(names).toEqual(["healthy", "b"]);
    expect(rejected).toEqual([
      { name: "#3 (no name)", reason: 'its definition is invalid at "name": Invalid key: Expected "name" but received undefined' },
      { name: "#4 (no name)", reason: "its definition is invalid: Invalid type: Expected Object but received 42" },
    ]);
  });
});

describe("tools/call: a result nested too deep", () => {
  test(`structuredContent nested 50,000 levels is refused with a clear error; ${MAX_RESULT_DEPTH} levels pass`, async () => {
    let depth = 50_000;
    const client = new McpClient(
      new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => ({ content: [], structuredContent: nestedObject(depth) }) }),
    );
    await client.connect();
    const error = await client.callTool("deep", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toBe(`the server sent a tools/call result nested deeper than ${MAX_RESULT_DEPTH} levels; it was refused`);
    // The result (1) holds structuredContent (2 and below).
    depth = MAX_RESULT_DEPTH - 1;
    expect((await client.callTool("deep", {})).structuredContent).toEqual(nestedObject(depth));
  });
});
