import { describe, expect, test } from "bun:test";
import { AnswerStream, plainFormat } from "../../../src/terminal/answer-stream.ts";
import { wrapToWidth } from "../../../src/terminal/text-wrap.ts";

/** An answer stream writing plain lines into `writes`; `restarts` counts "the retried answer differs". */
function plainStream(width?: number) {
  const writes: string[] = [];
  let restarts = 0;
  const stream = new AnswerStream((text) => writes.push(text), plainFormat(width ? () => width : undefined), () => restarts++);
  return { stream, writes, restarts: () => restarts };
}

function pushAll(stream: AnswerStream, pieces: string[]): void {
  for (const piece of pieces) stream.push(piece);
}

describe("an answer streamed a line at a time", () => {
  test("text split at odd places (inside a word, a CJK character's neighbours, a line end) comes out whole lines", () => {
    const { stream, writes } = plainStream();
    pushAll(stream, ["He", "llo wo", "rld\n你", "好\n", "\n", "la", "st"]);
    expect(writes).toEqual(["Hello world\n", "你好\n", "\n"]);
    stream.end();
    expect(writes.join("")).toBe("Hello world\n你好\n\nlast\n");
  });

  test("escape sequences in the model's text never reach the terminal", () => {
    const { stream, writes } = plainStream();
    pushAll(stream, ["a\u001b[2J", "\u001b]0;pwned\u0007b\u009b31m\n"]);
    stream.end();
    expect(writes.join("")).toBe("ab31m\n");
  });

  test("on a terminal, long lines wrap between words by display width", () => {
    const { stream, writes } = plainStream(10);
    stream.push("one two three 你好世界你好世界\n");
    stream.end();
    const lines = writes.join("").trimEnd().split("\n");
    expect(lines).toEqual(["one two", "three", "你好世界你", "好世界"]);
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(10);
  });
});

describe("a retried stream", () => {
  test("what the failed attempt showed is not shown again; the retry shows only the rest", () => {
    const { stream, writes, restarts } = plainStream();
    pushAll(stream, ["First line\nSecond li"]);
    stream.retry();
    pushAll(stream, ["Fir", "st line\nSec", "ond line\nThird\n"]);
    stream.end();
    expect(writes.join("")).toBe("First line\nSecond line\nThird\n");
    expect(restarts()).toBe(0);
  });

  test("two failures in a row still show each line once", () => {
    const { stream, writes } = plainStream();
    stream.push("A\nB");
    stream.retry();
    stream.push("A\nB\nC");
    stream.retry();
    stream.push("A\nB\nC\nD");
    stream.end();
    expect(writes.join("")).toBe("A\nB\nC\nD\n");
  });

  test("a retried answer that says something else is shown whole, after a line saying so", () => {
    const { stream, writes, restarts } = plainStream();
    stream.push("Yes, the file\n");
    stream.retry();
    stream.push("No such file\n");
    stream.end();
    expect(restarts()).toBe(1);
    expect(writes).toEqual(["Yes, the file\n", "No such file\n"]);
  });

  test("a retried answer shorter than what was shown is another answer too", () => {
    const { stream, writes, restarts } = plainStream();
    stream.push("One\nTwo\n");
    stream.retry();
    stream.push("One\n");
    stream.end();
    expect(restarts()).toBe(1);
    expect(writes).toEqual(["One\nTwo\n", "One\n"]);
  });

  test("a retry that is cancelled before any text says nothing", () => {
    const { stream, writes, restarts } = plainStream();
    stream.push("One\n");
    stream.retry();
    stream.end();
    expect(restarts()).toBe(0);
    expect(writes).toEqual(["One\n"]);
  });
});

describe("wrapToWidth", () => {
  test("keeps a line's indentation and wraps a list item under its text", () => {
    expect(wrapToWidth("  * alpha beta gamma", 14)).toBe("  * alpha beta\n    gamma");
    expect(wrapToWidth("    code line here", 12)).toBe("    code\n    line\n    here");
  });

  test("emoji take two columns", () => {
    const wrapped = wrapToWidth("🙂🙂🙂🙂🙂🙂", 5);
    for (const line of wrapped.split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(5);
    expect(wrapped.replaceAll("\n", "")).toBe("🙂🙂🙂🙂🙂🙂");
  });
});
