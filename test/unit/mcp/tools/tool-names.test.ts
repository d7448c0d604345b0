import { describe, expect, test } from "bun:test";
import { namespacedToolName, sanitizeNamePart } from "../../../../src/mcp/tools/tool-names.ts";

describe("tool names", () => {
  test("a plain name is mcp__<server>__<tool>", () => {
    expect(namespacedToolName("echo", "echo")).toBe("mcp__echo__echo");
  });

  test("each part keeps only [A-Za-z0-9_-]", () => {
    expect(namespacedToolName("my server", "read.file/v2")).toBe("mcp__my_server__read_file_v2");
  });

  test("a part with no letter or digit sanitizes to nothing", () => {
    expect(sanitizeNamePart("!!!")).toBe("");
    expect(sanitizeNamePart("日本")).toBe("");
    expect(sanitizeNamePart("a b")).toBe("a_b");
  });

  test("a tool name of no usable characters still gets a stable, distinct name", () => {
    const a = namespacedToolName("s", "日本");
    const b = namespacedToolName("s", "中文");
    expect(a).toMatch(/^mcp__s__tool_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(namespacedToolName("s", "日本")).toBe(a);
  });

  test("a name over 64 characters is cut and ends with a stable hash", () => {
    const long = "x".repeat(80);
    const name = namespacedToolName("server", long);
    expect(name.length).toBe(64);
    expect(name).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(namespacedToolName("server", long)).toBe(name);
    expect(namespacedToolName("server", `${long}y`)).not.toBe(name);
  });
});
