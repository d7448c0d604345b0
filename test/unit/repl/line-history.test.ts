import { expect, test } from "bun:test";
import { LineHistory } from "../../../src/repl/line-history.ts";

test("Up goes to older lines, Down back to newer, and past the newest to what was typed", () => {
  const history = new LineHistory(["one", "two", "three"]);
  expect(history.older("draft")).toBeUndefined();
  history.restart();
  expect(history.older("")).toBe("three");
  expect(history.older("three")).toBe("two");
  expect(history.older("two")).toBe("one");
  expect(history.older("one")).toBeUndefined();
  expect(history.newer("one")).toBe("two");
  expect(history.newer("two")).toBe("three");
  expect(history.newer("three")).toBe("");
  expect(history.newer("")).toBeUndefined();
});

test("text on the line before Up finds only the lines that start with it", () => {
  const history = new LineHistory(["/mcp list", "hello", "/mcp tools", "/help"]);
  expect(history.older("/mcp")).toBe("/mcp tools");
  expect(history.older("/mcp tools")).toBe("/mcp list");
  expect(history.newer("/mcp list")).toBe("/mcp tools");
  expect(history.newer("/mcp tools")).toBe("/mcp");
});

test("a line entered again moves to the newest place; blank lines are not kept; the oldest go past the limit", () => {
  const history = new LineHistory(["a", "b", "c"], 3);
  history.add("a");
  history.add("   ");
  expect(history.older("")).toBe("a");
  expect(history.older("a")).toBe("c");
  history.add("d");
  expect(history.older("")).toBe("d");
  expect(history.older("d")).toBe("a");
  expect(history.older("a")).toBe("c");
  expect(history.older("c")).toBeUndefined();
});
