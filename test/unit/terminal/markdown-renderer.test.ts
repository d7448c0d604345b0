import { beforeAll, describe, expect, test } from "bun:test";
import { AnswerStream, plainFormat, type TextFormat } from "../../../src/terminal/answer-stream.ts";
import { markdownFormat } from "../../../src/terminal/markdown-renderer.ts";

let format: TextFormat;
beforeAll(async () => {
  format = await markdownFormat(() => 60, plainFormat());
});

/** Streams `source` in pieces of `size` characters; returns each write. */
function render(source: string, size = 3, retryAfter?: { at: number; then: string }): string[] {
  const writes: string[] = [];
  const stream = new AnswerStream((text) => writes.push(text), format, () => writes.push("<differs>"));
  const pieces = (text: string) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));
  if (retryAfter) {
    for (const piece of pieces(source.slice(0, retryAfter.at))) stream.push(piece);
    stream.retry();
    source = retryAfter.then;
  }
  for (const piece of pieces(source)) stream.push(piece);
  stream.end();
  return writes;
}

const SGR = /\u001b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, "");
/** Any escape sequence or control character other than SGR, newline and tab. */
const UNSAFE = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;

describe("the answer as Markdown on a terminal", () => {
  test("headings, bold and inline code are styled, not shown as markup", () => {
    const out = render("## Plan\n\nThis is **important** and `npm test` runs it.\n").join("");
    expect(plain(out)).toContain("Plan");
    expect(plain(out)).toContain("This is important and npm test runs it.");
    expect(out).toContain("\u001b[1mimportant\u001b[22m");
    expect(plain(out)).not.toContain("**");
  });

  test("each finished block is written as soon as a blank line or the next block ends it, before the answer ends", () => {
    const writes: string[] = [];
    const stream = new AnswerStream((text) => writes.push(text), format);
    stream.push("First paragraph, ");
    stream.push("still going.\n");
    expect(writes).toEqual([]);
    stream.push("\nSecond ");
    expect(writes.map(plain).join("")).toBe("First paragraph, still going.\n\n");
    stream.push("paragraph.\n- a\n");
    expect(writes.map(plain).join("")).toContain("Second paragraph.");
    expect(writes.map(plain).join("")).not.toContain("• a");
    stream.end();
    expect(plain(writes.join(""))).toBe("First paragraph, still going.\n\nSecond paragraph.\n\n• a\n");
  });

  test("a table split at odd places is drawn with its frame, wide characters aligned", () => {
    const out = plain(render("| name | 名前 |\n|---|---|\n| cat | 猫 |\n| dog | 犬 |\n\nAfter.\n", 5).join(""));
    const rows = out.split("\n").filter((line) => line.includes("│"));
    expect(rows.length).toBe(3);
    const widths = new Set(rows.map((row) => Bun.stringWidth(row)));
    expect(widths.size).toBe(1);
    expect(out).toContain("猫");
    expect(out).toContain("┌");
  });

  test("a code block is highlighted, without its fences", () => {
    const out = render("```ts\nconst answer = 42;\nreturn answer;\n```\n\nDone.").join("");
    expect(plain(out)).toContain("  const answer = 42;\n  return answer;");
    expect(plain(out)).not.toContain("```");
    // Highlighted: `const` is coloured by cli-highlight.
    expect(out).toMatch(/\u001b\[[0-9;]+mconst\u001b\[/);
  });

  test("a list split before its next item's number stays one list", () => {
    const out = plain(render("1. one\n\n2. two\n\nEnd.\n", 1).join(""));
    expect(out).toContain("1. one");
    expect(out).toContain("2. two");
  });

  test("a retried stream does not show the blocks it already showed again", () => {
    const answer = "# Title\n\nFirst block.\n\nSecond block that broke.\n\nThird.\n";
    const writes = render(answer, 4, { at: answer.indexOf("that"), then: answer });
    const out = plain(writes.join(""));
    expect(out.split("Title").length).toBe(2);
    expect(out.split("First block.").length).toBe(2);
    expect(out.split("Second block that broke.").length).toBe(2);
    expect(writes).not.toContain("<differs>");
  });

  test("long paragraphs wrap by display width, CJK included", () => {
    const out = plain(render(`${"你好世界 ".repeat(30)}\n\nx\n`).join(""));
    for (const line of out.split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(60);
  });
});

describe("hostile text in the answer", () => {
  test("raw escape sequences, in text, code and headings, do not survive", () => {
    const source = "# T\u001b]0;title\u0007itle\n\nclear\u001b[2J screen \u009b31m\n\n```\ncode \u001b[?1049h here\n```\n\n- item \u001bP+q\u001b\\\n";
    const out = render(source).join("");
    expect(out).not.toMatch(UNSAFE);
    expect(plain(out)).toContain("clear screen");
  });

  test("character references to control characters are not decoded into them", () => {
    const out = render("a &#27;[2J b &#x1b;]0;x&#7; c &#155;31m d &#x202E; e &amp; f\n").join("");
    expect(out).not.toMatch(UNSAFE);
    expect(out).not.toContain("\u202e");
    expect(plain(out)).toContain("e & f");
  });

  test("links are shown with their address, never as an OSC 8 hyperlink", () => {
    const out = render("See [the docs](https://example.com/docs) and \u001b]8;;https://evil.example\u0007this\u001b]8;;\u0007.\n").join("");
    expect(out).not.toContain("\u001b]");
    expect(plain(out)).toContain("the docs (https://example.com/docs)");
    expect(out).not.toContain("evil.example");
  });

  test("a link whose address carries escape characters cannot break out", () => {
    const out = render("[x](https://a.example/\u001b[2J\u0007path)\n").join("");
    expect(out).not.toMatch(UNSAFE);
  });
});
