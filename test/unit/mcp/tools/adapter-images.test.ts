import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpToolAdapter } from "../../../../src/mcp/tools/mcp-tool-adapter.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { base64, gif, png } from "../../../helpers/image-bytes.ts";

async function adapterAnswering(content: unknown[]): Promise<McpToolAdapter> {
  const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => ({ content }) }), { timeoutMs: 5000 });
  await client.connect();
  return new McpToolAdapter("mcp__s__t", "s", { name: "t", inputSchema: { type: "object" } }, client);
}

describe("McpToolAdapter: image content of a tool result", () => {
  test("images go to `images`; the text keeps a line for each, in place", async () => {
    const tool = await adapterAnswering([
      { type: "text", text: "before" },
      { type: "image", data: base64(png(64, 32)), mimeType: "image/png" },
      { type: "image", data: base64(gif(3, 4)), mimeType: "image/gif" },
      { type: "text", text: "after" },
    ]);
    const result = await tool.execute({});
    expect(result.content).toBe("before\n[image 64×32 png]\n[image 3×4 gif]\nafter");
    expect(result.images).toEqual([
      { type: "image", mediaType: "image/png", data: base64(png(64, 32)) },
      { type: "image", mediaType: "image/gif", data: base64(gif(3, 4)) },
    ]);
  });

  test("at most 20 images per result; the rest are described, not sent", async () => {
    const tool = await adapterAnswering(Array.from({ length: 22 }, () => ({ type: "image", data: base64(png(1, 1)), mimeType: "image/png" })));
    const result = await tool.execute({});
    expect(result.images).toHaveLength(20);
    expect(result.content.split("\n").slice(20)).toEqual([
      "[image: image/png, 33 B: not shown, more than 20 images]",
      "[image: image/png, 33 B: not shown, more than 20 images]",
    ]);
  });

  test("an image over 5 MB as base64, one that is no image, and an SVG are described, not sent", async () => {
    const tool = await adapterAnswering([
      { type: "image", data: base64(png(10, 10, 4 * 1024 * 1024)), mimeType: "image/png" },
      { type: "image", data: base64(new TextEncoder().encode("<svg/>")), mimeType: "image/svg+xml" },
      { type: "image", data: "not//base64!!", mimeType: "image/png" },
    ]);
    const result = await tool.execute({});
    expect(result.images).toBeUndefined();
    expect(result.content.split("\n")).toEqual([
      "[image: image/png, 4.0 MB: not shown, it is over the 3.8 MB limit (5.0 MB as base64)]",
      "[image: image/svg+xml, 6 B: not shown, it is not a PNG, JPEG, GIF or WebP image]",
      "[image: image/png, 9 B: not shown, its data is not valid base64]",
    ]);
  });

  test("a result without images has no `images` at all", async () => {
    const tool = await adapterAnswering([{ type: "text", text: "hi" }, { type: "audio", data: "AAAA", mimeType: "audio/wav" }]);
    expect(await tool.execute({})).toEqual({ content: "hi\n[audio: audio/wav, 3 B]", isError: false });
  });
});
