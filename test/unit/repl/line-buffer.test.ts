import { describe, expect, test } from "bun:test";
import { LineBuffer, type EditAction } from "../../../src/repl/line-buffer.ts";

/** The buffer after typing `text` and applying `actions`, shown with `|` at the cursor. */
function edited(text: string, ...actions: (EditAction | { type: string })[]): string {
  const buffer = new LineBuffer();
  buffer.insert(text);
  for (const action of actions) {
    if (typeof action === "string") buffer.apply(action);
    else buffer.insert(action.type);
  }
  return `${buffer.text.slice(0, buffer.cursor)}|${buffer.text.slice(buffer.cursor)}`;
}

describe("LineBuffer", () => {
  test("typing inserts at the cursor; left, right, home and end move it", () => {
    expect(edited("helo", "left", { type: "l" })).toBe("hell|o");
    expect(edited("abc", "home", "right", { type: "X" }, "end")).toBe("aXbc|");
    expect(edited("ab", "right")).toBe("ab|");
  });

  test("backspace and delete remove one character, an emoji whole", () => {
    expect(edited("a😀b", "left", "backspace")).toBe("a|b");
    expect(edited("a😀b", "home", "right", "delete")).toBe("a|b");
    expect(edited("a😀", "left")).toBe("a|😀");
    expect(edited("a😀", "home", "right", "right")).toBe("a😀|");
    expect(edited("", "backspace", "delete")).toBe("|");
  });

  test("words: Alt+B and Alt+F move over a word and its blanks, Ctrl-W and Alt+D cut one", () => {
    expect(edited("git commit -m", "word-left")).toBe("git commit -|m");
    expect(edited("git commit -m", "word-left", "word-left")).toBe("git commit |-m");
    expect(edited("git commit -m", "home", "word-right")).toBe("git |commit -m");
    expect(edited("git commit  ", "kill-word-back")).toBe("git |");
    expect(edited("git commit -m", "home", "kill-word-forward")).toBe("|commit -m");
  });

  test("Ctrl-U and Ctrl-K cut to the start and to the end; Ctrl-Y puts the last cut back", () => {
    expect(edited("hello world", "word-left", "kill-start")).toBe("|world");
    expect(edited("hello world", "word-left", "kill-end")).toBe("hello |");
    expect(edited("hello world", "word-left", "kill-start", "end", "yank")).toBe("worldhello |");
    // A backspace is not a cut: Ctrl-Y still has the last one.
    expect(edited("ab cd", "kill-word-back", "backspace", "yank")).toBe("abcd|");
  });

  test("Ctrl-T swaps the characters around the cursor, the last two at the end", () => {
    expect(edited("teh", "left", "transpose")).toBe("the|");
    expect(edited("ab", "transpose")).toBe("ba|");
    expect(edited("a", "transpose")).toBe("a|");
  });

  test("apply says whether anything changed", () => {
    const buffer = new LineBuffer();
    expect(buffer.apply("left")).toBe(false);
    buffer.insert("x");
    expect(buffer.apply("right")).toBe(false);
    expect(buffer.apply("left")).toBe(true);
  });
});
