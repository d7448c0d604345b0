import { describe, expect, test } from "bun:test";
import { DEFAULT_IMAGE_LIMITS } from "../../../../src/agent/image-budget.ts";
import { contentsSize, DEFAULT_RESOURCE_LIMITS, resourceBlocks } from "../../../../src/mcp/tools/resource-content.ts";
import { base64, png } from "../../../helpers/image-bytes.ts";

const PNG = base64(png(16, 8));

describe("resourceBlocks: a read resource as blocks for the model", () => {
  test("text parts as text, each introduced by a line naming the server and URI", () => {
    const blocks = resourceBlocks("docs", [
      { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" },
      { uri: "file:///b.txt", text: "bee" },
    ]);
    expect(blocks).toEqual([
      { type: "text", text: "[resource docs:file:///a.md, text/markdown]\n# A" },
      { type: "text", text: "[resource docs:file:///b.txt]\nbee" },
    ]);
  });

  test("an image blob is an image block after its line; a PDF is described; a text/plain blob is decoded", () => {
    const blocks = resourceBlocks("s", [
      { uri: "pic://a.png", mimeType: "image/png", blob: PNG },
      { uri: "pic://m.pdf", mimeType: "application/pdf", blob: base64(new Uint8Array(1300 * 1024)) },
      { uri: "demo://blob/1", mimeType: "text/plain", blob: Buffer.from("plain words").toString("base64") },
      { uri: "demo://bin", mimeType: "text/plain", blob: base64(new Uint8Array([0xff, 0xfe, 0x00])) },
      { uri: "x://nothing" },
    ]);
    expect(blocks).toEqual([
      { type: "text", text: "[image s:pic://a.png 16×8 png]" },
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "text", text: "[binary resource s:pic://m.pdf, application/pdf, 1.3 MB: not shown]" },
      { type: "text", text: "[resource s:demo://blob/1, text/plain]\nplain words" },
      { type: "text", text: "[binary resource s:demo://bin, text/plain, 3 B: not shown]" },
      { type: "text", text: "[resource s:x://nothing: empty]" },
    ]);
  });

  test("text is cut with the tool output limit's note, over all parts together; past it, one line counts the rest", () => {
    const limits = { ...DEFAULT_RESOURCE_LIMITS, textChars: 100 };
    const blocks = resourceBlocks("s", [
      { uri: "a", text: "a".repeat(60) },
      { uri: "b", text: "b".repeat(60) },
      ...Array.from({ length: 10_000 }, (_, i) => ({ uri: `c${i}`, text: "c" })),
    ], limits);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toEqual({ type: "text", text: `[resource s:a]\n${"a".repeat(60)}` });
    expect(blocks[1]).toEqual({ type: "text", text: `[resource s:b]\n${"b".repeat(40)}\n\n[output cut: 20 of 60 characters not shown]` });
    expect(blocks[2]).toEqual({ type: "text", text: "[10000 more part(s) of s:c0 not shown: the output limit was reached]" });
  });

  test("at most 1000 parts are shown, whatever their kind; one line counts the rest", () => {
    const blocks = resourceBlocks("s", Array.from({ length: 2500 }, (_, i) => ({ uri: `b${i}`, mimeType: "application/zip", blob: "AAAA" })));
    expect(blocks).toHaveLength(1001);
    expect(blocks.at(-1)).toEqual({ type: "text", text: "[1500 more part(s) of s:b1000 not shown: the output limit was reached]" });
  });

  test("images past the count limit are described, not sent", () => {
    const limits = { ...DEFAULT_RESOURCE_LIMITS, images: { ...DEFAULT_IMAGE_LIMITS, maxImages: 1 } };
    const blocks = resourceBlocks("s", [{ uri: "1", mimeType: "image/png", blob: PNG }, { uri: "2", mimeType: "image/png", blob: PNG }], limits);
    expect(blocks.filter((b) => b.type === "image")).toHaveLength(1);
    expect(blocks.at(-1)).toEqual({ type: "text", text: "[image s:2: image/png, 33 B: not shown, more than 1 images]" });
  });

  test("a hostile URI is cut where it names a part", () => {
    const [block] = resourceBlocks("s", [{ uri: `x://${"u".repeat(10_000)}`, text: "t" }]);
    expect((block as { text: string }).text.length).toBeLessThan(600);
  });

  test("contentsSize: text in UTF-8 bytes, blobs decoded", () => {
    expect(contentsSize([{ uri: "a", text: "é".repeat(1000) }, { uri: "b", blob: base64(new Uint8Array(48)) }])).toBe("2.0 KB");
  });
});
