import { describe, expect, test } from "bun:test";
import { KeyParser, MAX_PASTE_CHARS } from "../../../src/repl/terminal-keys.ts";

const START = "\u001b[200~";
const END = "\u001b[201~";

describe("KeyParser", () => {
  test("a bracketed paste is one token, verbatim, with its line breaks and indentation", () => {
    expect(new KeyParser().feed(`ab${START}line 1\r    line 2\r\t${END}c\r`)).toEqual([
      { kind: "text", text: "ab" },
      { kind: "paste", text: "line 1\r    line 2\r\t", cut: false },
      { kind: "text", text: "c" },
      { kind: "key", sequence: "\r" },
    ]);
  });

  test("a paste and its end marker split across chunks", () => {
    const parser = new KeyParser();
    expect(parser.feed(`${START}first\rsec`)).toEqual([]);
    expect(parser.feed("ond\u001b[20")).toEqual([]);
    expect(parser.feed(`1~x`)).toEqual([
      { kind: "paste", text: "first\rsecond", cut: false },
      { kind: "text", text: "x" },
    ]);
  });

  test("the start marker split across chunks is still a paste", () => {
    const parser = new KeyParser();
    expect(parser.feed("\u001b[2")).toEqual([]);
    expect(parser.feed(`00~a\rb${END}`)).toEqual([{ kind: "paste", text: "a\rb", cut: false }]);
  });

  test("Alt+Enter, and Shift+Enter as kitty and modifyOtherKeys report it, are the newline key", () => {
    expect(new KeyParser().feed("a\u001b\rb\u001b[13;2uc\u001b[27;2;13~")).toEqual([
      { kind: "text", text: "a" },
      { kind: "newline" },
      { kind: "text", text: "b" },
      { kind: "newline" },
      { kind: "text", text: "c" },
      { kind: "newline" },
    ]);
  });

  test("control keys and escape sequences are keys; a lone ESC is the Esc key", () => {
    expect(new KeyParser().feed("\u0003\u0004\u001b[A\u001bOP\u001bb\u007f")).toEqual([
      { kind: "key", sequence: "\u0003" },
      { kind: "key", sequence: "\u0004" },
      { kind: "key", sequence: "\u001b[A" },
      { kind: "key", sequence: "\u001bOP" },
      { kind: "key", sequence: "\u001bb" },
      { kind: "key", sequence: "\u007f" },
    ]);
    expect(new KeyParser().feed("\u001b")).toEqual([{ kind: "key", sequence: "\u001b" }]);
  });

  test("a paste larger than the bound is cut, and says so", () => {
    const parser = new KeyParser();
    const tokens = parser.feed(`${START}${"x".repeat(MAX_PASTE_CHARS + 10)}${END}`);
    expect(tokens).toHaveLength(1);
    const [paste] = tokens as [{ kind: "paste"; text: string; cut: boolean }];
    expect(paste.text.length).toBe(MAX_PASTE_CHARS);
    expect(paste.cut).toBe(true);
  });
});
