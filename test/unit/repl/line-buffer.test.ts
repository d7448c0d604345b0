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

  test("Alt+Y right after Ctrl-Y swaps what was put back for the older cuts, round the ring; otherwise it does nothing", () => {
    // Three cuts: "three", then "two ", then "one ".
    const cuts = ["kill-word-back", "kill-word-back", "kill-word-back"] as const;
    expect(edited("one two three", ...cuts, "yank")).toBe("one |");
    expect(edited("one two three", ...cuts, "yank", "yank-pop")).toBe("two |");
    expect(edited("one two three", ...cuts, "yank", "yank-pop", "yank-pop")).toBe("three|");
    expect(edited("one two three", ...cuts, "yank", "yank-pop", "yank-pop", "yank-pop")).toBe("one |");
    expect(edited("x one two", "kill-word-back", "kill-word-back", "home", "yank", "yank-pop")).toBe("two|x ");
    // Not right after a Ctrl-Y: nothing.
    expect(edited("one two", "kill-word-back", "kill-word-back", "yank-pop")).toBe("|");
    expect(edited("one two", "kill-word-back", "kill-word-back", "yank", "left", "yank-pop")).toBe("one| ");
    // A cut the same as the newest is not kept twice.
    expect(edited("x", "kill-start", { type: "ab" }, "kill-start", { type: "ab" }, "kill-start", "yank", "yank-pop")).toBe("x|");
    // With one cut there is nothing older to swap in.
    expect(edited("one two", "kill-word-back", "yank", "yank-pop")).toBe("one two|");
  });

  test("Ctrl-_ takes back each change and Ctrl-^ brings it back; a move is no step, a new change ends redo", () => {
    expect(edited("", { type: "a" }, { type: "b" }, "undo")).toBe("a|");
    expect(edited("", { type: "a" }, { type: "b" }, "undo", "undo", "undo")).toBe("|");
    expect(edited("", { type: "a" }, { type: "b" }, "undo", "undo", "redo")).toBe("a|");
    // The cursor comes back to where the change was made.
    expect(edited("", { type: "ab" }, "home", "undo")).toBe("|");
    expect(edited("hello world", "word-left", "kill-end", "home", "undo")).toBe("hello |world");
    expect(edited("hello world", "word-left", "kill-end", "undo", "redo")).toBe("hello |");
    expect(edited("", { type: "a" }, { type: "b" }, "undo", { type: "c" }, "redo")).toBe("ac|");
    expect(edited("one two", "kill-word-back", "kill-word-back", "yank", "yank-pop", "undo")).toBe("one |");
  });

  test("undo keeps the last 2048 changes, and a new line starts with none", () => {
    const buffer = new LineBuffer();
    for (let i = 0; i < 2050; i++) buffer.insert("x");
    while (buffer.apply("undo"));
    expect(buffer.text).toBe("xx");
    buffer.reset("next");
    expect(buffer.apply("undo")).toBe(false);
    buffer.set("recalled");
    expect(buffer.apply("undo")).toBe(true);
    expect(buffer.text).toBe("next");
  });

  test("apply says whether anything changed", () => {
    const buffer = new LineBuffer();
    expect(buffer.apply("left")).toBe(false);
    buffer.insert("x");
    expect(buffer.apply("right")).toBe(false);
    expect(buffer.apply("left")).toBe(true);
  });
});
