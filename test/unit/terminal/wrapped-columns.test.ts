import { describe, expect, test } from "bun:test";
import { alignColumnsWrapped } from "../../../src/terminal/wrapped-columns.ts";

describe("a list with a long last column (/tools)", () => {
  const rows = [
    ["read_file", "read-only", "Read a file from the project, with line numbers, up to a limit of lines"],
    ["bash", "", "Run a command"],
  ];

  test("the description wraps between words, its next lines under its first", () => {
    const lines = alignColumnsWrapped(rows, 50);
    expect(lines).toEqual([
      "read_file  read-only  Read a file from the",
      "                      project, with line numbers,",
      "                      up to a limit of lines",
      "bash                  Run a command",
    ]);
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(50);
  });

  test("wide characters count as two columns, and no word is cut", () => {
    const lines = alignColumnsWrapped([["t", "工具の説明 とても 長い 説明文 です"]], 14);
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(14);
    expect(lines.join(" ").replace(/\s+/g, " ")).toBe("t 工具の説明 とても 長い 説明文 です");
  });

  test("too narrow for the description beside the names, it goes under them", () => {
    const lines = alignColumnsWrapped(rows, 30);
    expect(lines[0]).toBe("read_file  read-only");
    expect(lines[1]).toBe("    Read a file from the");
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(30);
  });

  test("without a width (a pipe), one row per line", () => {
    expect(alignColumnsWrapped(rows, undefined)).toEqual([
      "read_file  read-only  Read a file from the project, with line numbers, up to a limit of lines",
      "bash                  Run a command",
    ]);
  });
});
