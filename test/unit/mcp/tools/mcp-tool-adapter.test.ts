import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { flattenContent } from "../../../../src/mcp/tools/flatten-content.ts";
import { McpToolAdapter } from "../../../../src/mcp/tools/mcp-tool-adapter.ts";
import { limitOutput, TOOL_OUTPUT_LIMIT } from "../../../../src/agent/tools/output-limit.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { initializeHandler, MemoryTransport, NEVER, type Handler } from "../../../helpers/memory-transport.ts";

async function adapterFor(call: Handler, definition: object = {}, clock?: FakeClock): Promise<McpToolAdapter> {
  const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/call": call }), { timeoutMs: 100, clock });
  await client.connect();
  return new McpToolAdapter("mcp__s__t", "s", { name: "t", inputSchema: { type: "object" }, ...definition }, client);
}

describe("McpToolAdapter", () => {
  test("readOnlyHint maps to isReadOnly, absent means false", async () => {
    expect((await adapterFor(() => ({}), { annotations: { readOnlyHint: true } })).isReadOnly).toBe(true);
    expect((await adapterFor(() => ({}))).isReadOnly).toBe(false);
  });

  test("a text result is returned as text", async () => {
    const tool = await adapterFor((params) => ({ content: [{ type: "text", text: `got ${params.arguments.x}` }] }));
    expect(await tool.execute({ x: 1 })).toEqual({ content: "got 1", isError: false });
  });

  test("an isError result stays an error result with the server's text", async () => {
    const tool = await adapterFor(() => ({ content: [{ type: "text", text: "no such file" }], isError: true }));
    expect(await tool.execute({})).toEqual({ content: "no such file", isError: true });
  });

  test("a JSON-RPC error becomes an error result, never a throw", async () => {
    const tool = await adapterFor(() => {
      throw new Error("boom");
    });
    expect(await tool.execute({})).toEqual({ content: "Error: MCP tool 'mcp__s__t' failed: boom", isError: true });
  });

  test("a timeout becomes an error result naming the timeout", async () => {
    const clock = new FakeClock();
    const tool = await adapterFor(() => NEVER, {}, clock);
    const running = tool.execute({});
    clock.advance(110);
    expect(await running).toEqual({ content: "Error: MCP tool 'mcp__s__t' failed: tools/call timed out after 100 ms", isError: true });
  });

  test("a cancelled call says the user cancelled it", async () => {
    const tool = await adapterFor(() => NEVER);
    const controller = new AbortController();
    const running = tool.execute({}, { signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ content: "Error: MCP tool 'mcp__s__t' failed: cancelled by the user", isError: true });
  });

  test("output over the model's limit comes whole: the tool runner cuts it and saves the whole (output-limit.ts)", async () => {
    const tool = await adapterFor(() => ({ content: [{ type: "text", text: "y".repeat(TOOL_OUTPUT_LIMIT + 500) }] }));
    const result = await tool.execute({});
    expect(result.content).toBe("y".repeat(TOOL_OUTPUT_LIMIT + 500));
  });
});

describe("flattenContent", () => {
  test("text as is, other blocks as placeholders naming their type", () => {
    const text = flattenContent({
      isError: false,
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "audio", data: "AAAAAAAA", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///a.txt", name: "a" },
        { type: "resource", resource: { uri: "file:///b.txt", text: "abc", mimeType: "text/plain" } },
        { type: "hologram" },
      ],
    });
    expect(text.split("\n")).toEqual([
      "hello",
      "[image: image/png, 3 B]",
      "[audio: audio/wav, 6 B]",
      "[resource link: file:///a.txt]",
      "[resource: file:///b.txt, text/plain, 3 chars]",
      "[hologram content]",
    ]);
  });

  test("structured content alone is shown as JSON", () => {
    expect(flattenContent({ isError: false, content: [], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
  });

  test("limitOutput leaves short text alone", () => {
    expect(limitOutput("short")).toBe("short");
  });
});
