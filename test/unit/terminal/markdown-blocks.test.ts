import { beforeAll, describe, expect, test } from "bun:test";
import { AnswerStream, plainFormat, type TextFormat } from "../../../src/terminal/answer-stream.ts";
import { markdownFormat } from "../../../src/terminal/markdown-renderer.ts";

let width = 120;
let format: TextFormat;
beforeAll(async () => {
  format = await markdownFormat(() => width, plainFormat());
});

/** `source` rendered at `columns`, in one piece: the rows as the terminal shows them. */
function rows(source: string, columns: number): string[] {
  width = columns;
  const writes: string[] = [];
  const stream = new AnswerStream((text) => writes.push(text), format);
  stream.push(source);
  stream.end();
  return writes.join("").replace(/\n$/, "").split("\n");
}

const plain = (text: string) => Bun.stripANSI(text);
const plainRows = (source: string, columns: number) => rows(source, columns).map(plain);

describe.each([120, 60])("Markdown at %i columns", (columns) => {
  test("nested lists are numbered from their own start and indented under their item's text", () => {
    const out = plainRows("1. First item\n   1. nested one\n   2. nested two\n      - deep bullet\n2. Second item\n   - bullet under two\n3. Third\n", columns);
    expect(out).toEqual(["1. First item", "   1. nested one", "   2. nested two", "      ▪ deep bullet", "2. Second item", "   ◦ bullet under two", "3. Third"]);
  });

  test("a list keeps its start number, and a loose list its items' numbers", () => {
    expect(plainRows("3. three\n\n4. four\n\n5. five\n", columns)).toEqual(["3. three", "4. four", "5. five"]);
  });

  test("bold, italics and inline code inside list items are styled, not raw", () => {
    const out = rows("- a **bold** word, an *italic* one and `npm test`\n  1. nested **strong**\n", columns);
    expect(plain(out.join("\n"))).toBe("• a bold word, an italic one and npm test\n  1. nested strong");
    expect(out[0]).toContain("\u001b[1mbold\u001b[22m");
    expect(out[0]).toContain("\u001b[3mitalic\u001b[23m");
    expect(out[0]).toContain("\u001b[33mnpm test\u001b[39m");
    expect(out[1]).toContain("\u001b[1mstrong\u001b[22m");
  });

  test("text that merely looks like an address gets no (mailto:…), and a bare URL is shown once", () => {
    const out = plain(rows("Install pkg@1.2.3, mail user@host.com, <me@example.org> or see https://example.com/docs today.\n", columns).join(" "));
    expect(out).toBe("Install pkg@1.2.3, mail user@host.com, me@example.org or see https://example.com/docs today.");
    expect(out).not.toContain("mailto");
  });

  test("headings show without their #", () => {
    expect(plainRows("# One\n\n## Two\n\n### Three\n\ntext\n", columns)).toEqual(["One", "", "Two", "", "Three", "", "text"]);
  });

  test("a task list shows its boxes", () => {
    expect(plainRows("- [x] done\n- [ ] to do\n", columns)).toEqual(["• [x] done", "• [ ] to do"]);
  });

  test("a long list item wraps under its text, not under its marker", () => {
    const out = plainRows(`1. ${"word ".repeat(40)}\n`, columns);
    expect(out.length).toBeGreaterThan(1);
    for (const row of out.slice(1)) expect(row.startsWith("   w")).toBe(true);
    for (const row of out) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(columns);
  });
});

describe("tables", () => {
  const table = "| Name | Description | Value |\n|---|---|--:|\n| alpha | short | 1 |\n| beta | a much longer description that goes on and on to make this table wider than sixty columns | 22 |\n";

  test("a table that fits is framed, its columns as wide as their cells, numbers aligned right", () => {
    const out = plainRows(table, 120);
    expect(out[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    expect(out[1]).toMatch(/^│ Name  │ Description +│ Value │$/);
    expect(out[3]).toMatch(/^│ alpha │ short +│     1 │$/);
    expect(new Set(out.map((row) => Bun.stringWidth(row))).size).toBe(1);
    expect(out.join("\n")).not.toContain("| ");
  });

  test("a table wider than the window wraps inside its cells, the frame whole", () => {
    const out = plainRows(table, 60);
    expect(out.every((row) => Bun.stringWidth(row) === 60)).toBe(true);
    expect(out.join("\n")).not.toContain("| ");
    const cells = out.filter((row) => row.startsWith("│")).map((row) => row.split("│")[2]!.trim());
    expect(cells.join(" ")).toContain("a much longer description that goes on and on to make this table wider than sixty columns");
    // Wrapped between words: every piece is whole words of the description.
    for (const cell of cells) for (const word of cell.split(" ")) expect(["Description", "short", ...table.split(/[\s|]+/)]).toContain(word);
  });

  test("a table that cannot fit even wrapped becomes one header: value block per row", () => {
    const wide = `| ${["Name", "Kind", "Owner", "Created", "Updated", "Status", "Notes"].join(" | ")} |\n|${"---|".repeat(7)}\n| cat-code | cli | team-a | 2026-01-02 | 2026-02-03 | active | ships weekly |\n| keeper | daemon | team-b | 2026-01-05 | 2026-02-06 | paused | see issue 12 |\n`;
    const out = plainRows(wide, 60);
    expect(out.slice(0, 8)).toEqual(["Name: cat-code", "Kind: cli", "Owner: team-a", "Created: 2026-01-02", "Updated: 2026-02-03", "Status: active", "Notes: ships weekly", ""]);
    expect(out).toContain("Name: keeper");
    expect(out.join("\n")).not.toContain("|");
    expect(out.join("\n")).not.toContain("┌");
    // At 120 columns the same table is framed.
    expect(plainRows(wide, 120)[0]).toStartWith("┌");
  });

  test("a long word (an address, a version) stays whole in its column when the words of every column fit", () => {
    const source = `| Package | Description | Maintainer |\n|---|---|---|\n| left-pad-extreme | ${"Pads strings on the left with any character you like, fast. ".repeat(3)}| alice@example.com |\n`;
    const out = plainRows(source, 80);
    expect(out.join("\n")).toContain("│ alice@example.com │");
    for (const row of out) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(80);
  });

  test("a cell's <br> is a line break inside the cell", () => {
    const out = plainRows("| step | notes |\n|---|---|\n| build | first line<br>second line |\n", 120);
    expect(out).toContain("│ build │ first line  │");
    expect(out).toContain("│       │ second line │");
  });

  test("a key/value line longer than the window wraps under its key", () => {
    const wide = `| alpha | bravo | charlie | delta | echo | foxtrot | golf |\n|${"---|".repeat(7)}\n| ${"long text ".repeat(10)}| 2 | 3 | 4 | 5 | 6 | 7 |\n`;
    const out = plainRows(wide, 40);
    expect(out[0]).toStartWith("alpha: long text");
    expect(out[1]).toStartWith("  long");
    for (const row of out) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
  });
});

describe("after a resize", () => {
  test("what is printed next fits the new width", () => {
    width = 120;
    const writes: string[] = [];
    const stream = new AnswerStream((text) => writes.push(text), format);
    stream.push(`${"wide ".repeat(30)}\n\n`);
    width = 40;
    stream.push(`${"narrow ".repeat(30)}\n\nend`);
    stream.end();
    const out = plain(writes.join("")).split("\n");
    expect(out[0]!.length).toBeGreaterThan(100);
    const narrow = out.filter((row) => row.includes("narrow"));
    expect(narrow.length).toBeGreaterThan(3);
    for (const row of narrow) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
  });

  test("a code block being shown lays out its next lines at the new width; the lines shown stay", () => {
    width = 120;
    const writes: string[] = [];
    const stream = new AnswerStream((text) => writes.push(text), format);
    const line = (n: number) => `const value${n} = "${"long words in a string ".repeat(3)}";\n`;
    stream.push(`\`\`\`ts\n${line(1)}${line(2)}`);
    width = 40;
    stream.push(`${line(3)}${line(4)}\`\`\`\n\nAfter.\n`);
    stream.end();
    const out = plain(writes.join("")).split("\n");
    expect(out.filter((row) => row.includes("const value1"))[0]!.length).toBeGreaterThan(60);
    const later = out.slice(out.findIndex((row) => row.includes("const value3")));
    for (const row of later) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    for (const n of [1, 2, 3, 4]) expect(out.filter((row) => row.includes(`const value${n} `)).length).toBe(1);
  });

  test("a paragraph being shown wraps its next rows at the new width; the rows shown stay", () => {
    width = 100;
    const writes: string[] = [];
    const stream = new AnswerStream((text) => writes.push(text), format);
    const words = Array.from({ length: 80 }, (_, i) => (i % 9 === 4 ? `**w${i}**` : `w${i}`));
    stream.push(`${words.slice(0, 40).join(" ")} `);
    const before = plain(writes.join("")).split("\n").filter((row) => row !== "");
    expect(before.length).toBeGreaterThan(0);
    width = 30;
    stream.push(`${words.slice(40).join(" ")}\n\nAfter.\n`);
    stream.end();
    const out = plain(writes.join("")).split("\n");
    expect(out.slice(0, before.length)).toEqual(before);
    for (const row of out.slice(before.length)) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
    expect(out.join(" ").replace(/\s+/g, " ").trim()).toBe(`${words.join(" ").replaceAll("**", "")} After.`);
  });
});
