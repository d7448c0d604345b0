import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeCut, headAndTail, OutputLimit } from "../../../../src/agent/tools/output-limit.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "output-limit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("headAndTail", () => {
  test("keeps the first and the last lines, with the note between them, within the limit", () => {
    const text = numbered(10_000);
    const cut = headAndTail(text, 2_000, "[NOTE]");
    expect(cut.length).toBeLessThanOrEqual(2_000);
    expect(cut.startsWith("line 1\nline 2\n")).toBe(true);
    expect(cut.endsWith("line 9999\nline 10000")).toBe(true);
    expect(cut).toContain("\n[NOTE]\n");
    // Whole lines on either side of the note: a line is never cut in two.
    const [head, tail] = cut.split("\n[NOTE]\n") as [string, string];
    expect(head.split("\n").every((line) => /^line \d+$/.test(line))).toBe(true);
    expect(tail.split("\n").every((line) => /^line \d+$/.test(line))).toBe(true);
  });

  test("never cuts an emoji in half", () => {
    const cut = headAndTail("😀".repeat(10_000), 1_001, "[NOTE]");
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  test("gives the tail the larger share: errors are at the end", () => {
    const cut = headAndTail("h".repeat(50_000) + "t".repeat(50_000), 1_000, "[NOTE]");
    const [head, tail] = cut.split("\n[NOTE]\n") as [string, string];
    expect(tail.length).toBeGreaterThan(head.length);
  });
});

describe("OutputLimit", () => {
  const limit = (folder: string | undefined, maxFolderBytes?: number) =>
    new OutputLimit({ maxChars: (name) => (name.startsWith("mcp__") ? 500 : 1_000), folder: () => folder, maxFolderBytes });

  test("a result within its limit passes untouched, and nothing is saved", () => {
    const result = { content: "x".repeat(1_000), isError: false };
    expect(limit(join(dir, "out")).apply("toolu_1", "bash", result)).toEqual({ result });
    expect(readdirSync(dir)).toEqual([]);
  });

  test("past it, the model gets head, tail and the saved file's path and size; the file holds the whole, 0600 in a 0700 folder", () => {
    const folder = join(dir, "session", "tool-outputs");
    const text = numbered(5_000);
    const { result, cut } = limit(folder).apply("toolu_01A", "bash", { content: text, isError: true });
    const path = join(folder, "toolu_01A.txt");
    expect(cut).toEqual({ chars: text.length, bytes: text.length, lines: 5_000, path });
    expect(result.isError).toBe(true);
    expect(result.content.length).toBeLessThanOrEqual(1_000);
    expect(result.content.startsWith("line 1\n")).toBe(true);
    expect(result.content.endsWith("line 5000")).toBe(true);
    expect(result.content).toContain(`The whole output (${text.length.toLocaleString("en-US")} characters, 5,000 lines) is saved in ${path}; read it with read_file`);
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  test("each tool gets its own limit (MCP tools' from MAX_MCP_OUTPUT_TOKENS)", () => {
    const content = "y".repeat(800);
    const out = limit(join(dir, "out"));
    expect(out.apply("a", "bash", { content, isError: false }).cut).toBeUndefined();
    expect(out.apply("b", "mcp__s__t", { content, isError: false }).cut?.chars).toBe(800);
  });

  test("without a session folder the output is cut and the model and the user are told it was not saved", () => {
    const { result, cut } = limit(undefined).apply("toolu_2", "bash", { content: numbered(5_000), isError: false });
    expect(cut?.path).toBeUndefined();
    expect(result.content).toContain("it was not saved: this session is not saved, so neither is the output");
    expect(describeCut("bash", cut!)).toContain("not saved: this session is not saved");
  });

  test("past the folder's disk bound outputs are cut without saving, and say why", () => {
    const out = limit(join(dir, "out"), 30_000);
    const first = out.apply("c1", "bash", { content: "z".repeat(20_000), isError: false });
    const second = out.apply("c2", "bash", { content: "z".repeat(20_000), isError: false });
    expect(first.cut?.path).toBe(join(dir, "out", "c1.txt"));
    expect(second.cut?.path).toBeUndefined();
    expect(second.cut?.notSaved).toContain("reached their 29.3 KB bound");
    expect(readdirSync(join(dir, "out"))).toEqual(["c1.txt"]);
  });

  test("files already in the folder (a resumed session's) count towards the bound", () => {
    const folder = join(dir, "out");
    limit(folder).apply("old", "bash", { content: "o".repeat(25_000), isError: false });
    expect(limit(folder, 30_000).apply("new", "bash", { content: "n".repeat(10_000), isError: false }).cut?.notSaved).toContain("bound");
  });

  test("a file planted at the path is not written through, and the model is told saving failed", () => {
    const folder = join(dir, "out");
    limit(folder).apply("seed", "bash", { content: "s".repeat(2_000), isError: false });
    writeFileSync(join(dir, "victim"), "keep");
    symlinkSync(join(dir, "victim"), join(folder, "toolu_3.txt"));
    const { cut } = limit(folder).apply("toolu_3", "bash", { content: "e".repeat(2_000), isError: false });
    expect(cut?.notSaved).toContain("saving it failed");
    expect(readFileSync(join(dir, "victim"), "utf8")).toBe("keep");
  });

  test("a call id is never a path: anything but letters, digits, _ and - becomes _", () => {
    const { cut } = limit(join(dir, "out")).apply("../../evil", "bash", { content: "e".repeat(2_000), isError: false });
    expect(cut?.path).toBe(join(dir, "out", "______evil.txt"));
  });
});
