import { expect, test } from "bun:test";
import { PastedText } from "../../../src/repl/pasted-text.ts";

test("one plain line goes in as it is; lines, tabs and control characters become a label", () => {
  const pasted = new PastedText();
  expect(pasted.label("just text")).toBe("just text");
  expect(pasted.label("a\r\n  b\rc\n")).toBe("[pasted 3 lines]");
  expect(pasted.label("x\ty")).toBe("[pasted 1 line]");
  expect(pasted.label("esc \u001b[2J")).toBe("[pasted 1 line #2]");
});

test("expand puts every paste back verbatim (line breaks normalized to \\n), in one pass", () => {
  const pasted = new PastedText();
  const first = pasted.label("def f():\r    return 1");
  const second = pasted.label("one\ntwo");
  expect(second).toBe("[pasted 2 lines #2]");
  expect(pasted.expand(`look ${first} and ${second}`)).toBe("look def f():\n    return 1 and one\ntwo");
  // A paste whose own text looks like a label is not expanded again.
  const tricky = pasted.label(`${first}\nmore`);
  expect(pasted.expand(tricky)).toBe(`${first}\nmore`);
  expect(pasted.expand("[pasted 9 lines] was typed, not pasted")).toBe("[pasted 9 lines] was typed, not pasted");
});

test("the same text pasted twice shares its label", () => {
  const pasted = new PastedText();
  expect(pasted.label("a\nb")).toBe("[pasted 2 lines]");
  expect(pasted.label("a\nb")).toBe("[pasted 2 lines]");
});
