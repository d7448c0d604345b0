import { beforeAll, describe, expect, test } from "bun:test";
import { AnswerStream, plainFormat, type TextFormat } from "../../../src/terminal/answer-stream.ts";
import { markdownFormat } from "../../../src/terminal/markdown-renderer.ts";
import { stylesPerLine, wrapLine } from "../../../src/terminal/text-wrap.ts";

let format: TextFormat;
/** The window's width, changed by the resize tests. */
let columns = 60;
beforeAll(async () => {
  format = await markdownFormat(() => columns, plainFormat());
});

const plain = (text: string) => Bun.stripANSI(text);

/** A stream into `writes`, and what it wrote so far as plain text. */
function streamOf(textFormat: TextFormat = format) {
  const writes: string[] = [];
  const stream = new AnswerStream((text) => writes.push(text), textFormat, () => writes.push("<differs>"));
  return { stream, writes, shown: () => plain(writes.join("")) };
}

/** The answer written in one piece: what streaming it must come to, row for row. */
function whole(source: string, textFormat: TextFormat = format): string {
  const { stream, writes } = streamOf(textFormat);
  stream.push(source);
  stream.end();
  return writes.join("");
}

/** `source` pushed in pieces of `size` characters. */
function streamed(source: string, size: number, textFormat: TextFormat = format): string {
  const { stream, writes } = streamOf(textFormat);
  for (let at = 0; at < source.length; at += size) stream.push(source.slice(at, at + size));
  stream.end();
  return writes.join("");
}

const WORDS = "the model writes a long answer with **bold words**, `code spans`, *italics* and snake_case names that wrap".split(" ");

describe("an answer shown line by line as it streams", () => {
  test("a long paragraph's full rows appear as it grows, before it ends", () => {
    const { stream, writes, shown } = streamOf();
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`);
    for (const word of words.slice(0, 40)) stream.push(`${word} `);
    const rows = shown().split("\n").filter((row) => row !== "");
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows[0]).toStartWith("word0 word1");
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
    // The row still filling is not shown.
    expect(shown()).not.toContain("word39");
    for (const word of words.slice(40)) stream.push(`${word} `);
    stream.end();
    expect(writes.join("")).toBe(whole(`${words.join(" ")} `));
  });

  test("a code block's lines appear one by one, highlighted, while its fence is open", () => {
    const { stream, writes, shown } = streamOf();
    stream.push("Here:\n\n```ts\nconst a");
    expect(shown()).toBe("Here:\n\n");
    stream.push(" = 1;\nconst b = 2;\n");
    expect(shown()).toBe("Here:\n\n  const a = 1;\n  const b = 2;\n");
    expect(writes.join("")).toMatch(/\u001b\[[0-9;]+mconst\u001b\[/);
    stream.push("return a + b;\n");
    expect(shown()).toEndWith("  return a + b;\n");
    stream.push("```\n\nDone.");
    stream.end();
    expect(plain(writes.join(""))).toBe(plain(whole("Here:\n\n```ts\nconst a = 1;\nconst b = 2;\nreturn a + b;\n```\n\nDone.")));
    expect(shown().split("const a = 1;").length).toBe(2);
  });

  test("a list's items appear once the next one starts; the item being written waits", () => {
    const { stream, shown } = streamOf();
    stream.push("1. first\n2. sec");
    expect(shown()).toBe("1. first\n");
    stream.push("ond\n   - nested\n");
    expect(shown()).toBe("1. first\n2. second\n");
    stream.push("3. third\n");
    expect(shown()).toBe("1. first\n2. second\n   ◦ nested\n");
    stream.end();
    expect(shown()).toBe("1. first\n2. second\n   ◦ nested\n3. third\n");
  });

  test("emphasis still open when its row fills is not shown raw: the rows wait for it", () => {
    const { stream, writes } = streamOf();
    stream.push(`${"plain ".repeat(12)}**bold that goes on ${"and on ".repeat(12)}`);
    expect(writes.join("")).not.toContain("**");
    stream.push("until here** and more.\n");
    stream.end();
    expect(writes.join("")).not.toContain("**");
    expect(writes.join("")).toContain("\u001b[1m");
  });

  test("text that only looks like markup (2 * 3, a < b, snake_case) does not hold the rows back", () => {
    const { stream, shown } = streamOf();
    stream.push(`${"so 2 * 3 is 6 and a < b holds for snake_case names, ".repeat(4)}and more`);
    expect(shown().split("\n").filter((row) => row !== "").length).toBeGreaterThanOrEqual(2);
    stream.end();
  });

  test("a table waits for its end: its columns need every row", () => {
    const { stream, shown } = streamOf();
    stream.push("| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(shown()).toBe("");
    stream.push("\nafter\n");
    expect(shown()).toContain("┌");
  });

  test.each([1, 2, 3, 7, 13, 40])("streamed in pieces of %i characters, it comes out row for row as in one piece", (size) => {
    const source = [
      "# Title",
      "",
      `A paragraph ${WORDS.join(" ")} ${WORDS.join(" ")}`,
      "and a second line of it.",
      "",
      "1. one with **bold**",
      "   - nested item that is long enough to wrap at sixty columns, as it does here",
      "2. two",
      "",
      "```python",
      "def f(x):",
      '    """A docstring',
      '    over lines."""',
      "    return x  # " + "comment ".repeat(8),
      "```",
      "",
      "| k | v |",
      "|---|---|",
      "| a | b |",
      "",
      "The end, with a last paragraph that wraps " + WORDS.join(" "),
    ].join("\n");
    // Colours may differ: a line of code was highlighted when it was the last one.
    expect(plain(streamed(source, size))).toBe(plain(whole(source)));
  });

  test("escape sequences in rows shown while their block grows never reach the terminal", () => {
    const hostile = `${"word \u001b]0;title\u0007 &#27;[2J ".repeat(20)}\n\n\`\`\`\nline \u001b[2J \u009b31m\n${"more ".repeat(30)}\u001bP+q\u001b\\\n\`\`\`\n\n- item \u001b[?1049h\n- next\n`;
    const out = streamed(hostile, 1);
    expect(out).not.toMatch(/\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/);
    expect(plain(out)).toContain("line  31m");
  });

  test("with the window resized at random while it streams, every word is shown once, in order", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const source = [
      `A paragraph ${WORDS.join(" ")} ${WORDS.join(" ")} ${WORDS.join(" ")}`,
      "",
      "1. one with **bold** and a long tail of words that wraps",
      "   - nested item that is long enough to wrap at narrow widths, as it does here",
      "2. two",
      "",
      "```ts",
      ...Array.from({ length: 8 }, (_, i) => `const line${i} = "${"some words ".repeat(i)}";`),
      "```",
      "",
      `Last ${WORDS.join(" ")}`,
      "Text with **bold that spans",
      "two lines** and a heading after it",
      "",
      "# Heading",
      "",
      "---",
      "",
      "> a quote",
      "",
      "Tail 你好世界 emoji 🙂🙂 text.",
    ].join("\n");
    // Compared without blanks (a word longer than a narrow row is cut in two) and rules (as wide as the window).
    const normalized = (text: string) => plain(text).replace(/─+/g, "─").replace(/\s+/g, "");
    try {
      for (let round = 0; round < 30; round++) {
        const { stream, writes } = streamOf();
        for (let at = 0; at < source.length; ) {
          if (random() < 0.1) columns = 20 + Math.floor(random() * 100);
          const size = 1 + Math.floor(random() * 12);
          stream.push(source.slice(at, at + size));
          at += size;
        }
        stream.end();
        columns = 200;
        expect(normalized(writes.join(""))).toBe(normalized(whole(source)));
      }
    } finally {
      columns = 60;
    }
  });

  test("a retried stream does not show again the rows of a block it showed while it grew", () => {
    const { stream, shown } = streamOf();
    const answer = `Intro.\n\n${"long paragraph words ".repeat(12)}end.\n\n\`\`\`\nline one\nline two\n\`\`\`\n`;
    const cut = answer.indexOf("line two");
    stream.push(answer.slice(0, cut));
    stream.retry();
    for (let at = 0; at < answer.length; at += 5) stream.push(answer.slice(at, at + 5));
    stream.end();
    expect(shown().split("Intro.").length).toBe(2);
    expect(shown().split("line one").length).toBe(2);
    expect(shown()).not.toContain("<differs>");
    expect(shown().replace(/\s+/g, " ")).toBe(plain(whole(answer)).replace(/\s+/g, " "));
  });

  test("a retry that says something else inside a block shown while it grew is shown whole, after a line saying so", () => {
    const { stream, writes } = streamOf();
    stream.push(`${"first attempt words ".repeat(8)}`);
    expect(writes.length).toBe(1);
    stream.retry();
    stream.push(`${"first attempt words ".repeat(2)}but then another way.\n`);
    stream.end();
    expect(writes[1]).toBe("<differs>");
    expect(plain(writes.slice(2).join(""))).toBe(plain(whole(`${"first attempt words ".repeat(2)}but then another way.\n`)));
  });

  test("plain text on a terminal: a long line's rows appear as it fills", () => {
    const plainLines = plainFormat(() => 20);
    const { stream, shown } = streamOf(plainLines);
    stream.push("alpha beta gamma delta epsilon zeta eta theta");
    expect(shown()).toBe("alpha beta gamma\ndelta epsilon zeta\n");
    stream.push(" iota\n");
    stream.end();
    expect(shown()).toBe("alpha beta gamma\ndelta epsilon zeta\neta theta iota\n");
    expect(streamed("a b c d e f g h i j k l m n o p q r s t u v w x y z\n", 1, plainLines)).toBe(whole("a b c d e f g h i j k l m n o p q r s t u v w x y z\n", plainLines));
  });
});

describe("wrapLine", () => {
  test("rows already full never change as text is appended (prefix-stable), long words included", () => {
    const text = "one two threefourfivesixseveneightnine ten 你好世界你好世界 eleven https://example.com/a/very/long/path/that/goes/on twelve";
    for (const width of [4, 7, 10, 16]) {
      const final = wrapLine(text, width);
      for (let end = 1; end <= text.length; end++) {
        const rows = wrapLine(text.slice(0, end), width);
        expect(rows.slice(0, -1)).toEqual(final.slice(0, rows.length - 1));
      }
      for (const row of final) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(width);
    }
  });

  test("a style open across rows is closed at each row's end and opened again", () => {
    expect(wrapLine("\u001b[1mbold words here\u001b[22m", 10)).toEqual(["\u001b[1mbold words\u001b[22m", "\u001b[1mhere\u001b[22m"]);
    expect(stylesPerLine("\u001b[32m/* a\nb */\u001b[39m x")).toEqual(["\u001b[32m/* a\u001b[0m", "\u001b[32mb */\u001b[39m x"]);
  });
});
