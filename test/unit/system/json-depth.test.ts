import { describe, expect, test } from "bun:test";
import { exceedsDepth } from "../../../src/system/json-depth.ts";
import { nestedObject } from "../../helpers/nested-object.ts";

describe("exceedsDepth", () => {
  test("counts containers: a scalar is 0 deep, {} is 1, each object or array inside adds one", () => {
    expect(exceedsDepth("text", 0)).toBe(false);
    expect(exceedsDepth(null, 0)).toBe(false);
    expect(exceedsDepth({}, 0)).toBe(true);
    expect(exceedsDepth({}, 1)).toBe(false);
    expect(exceedsDepth({ a: [{ b: {} }] }, 4)).toBe(false);
    expect(exceedsDepth({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(exceedsDepth([[[]]], 3)).toBe(false);
    expect(exceedsDepth([1, "x", [true, [null]]], 3)).toBe(false);
    expect(exceedsDepth([1, "x", [true, [null]]], 2)).toBe(true);
  });

  test("exactly at the limit passes, one level more does not, wherever the deep branch is", () => {
    expect(exceedsDepth(nestedObject(64), 64)).toBe(false);
    expect(exceedsDepth(nestedObject(65), 64)).toBe(true);
    // The root (1), the list (2), the object in it (3), then the nested branch.
    expect(exceedsDepth({ shallow: 1, list: [0, 1, { deep: nestedObject(62) }] }, 64)).toBe(true);
    expect(exceedsDepth({ shallow: 1, list: [0, 1, { deep: nestedObject(61) }] }, 64)).toBe(false);
  });

  test("a value 200,000 levels deep is refused without overflowing the stack", () => {
    const deep = JSON.parse(`${'{"a":'.repeat(199_999)}{}${"}".repeat(199_999)}`);
    expect(exceedsDepth(deep, 64)).toBe(true);
    expect(exceedsDepth(deep, 512)).toBe(true);
    expect(exceedsDepth(JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`), 512)).toBe(true);
  });

  test("no limit means no walk", () => {
    expect(exceedsDepth(nestedObject(100_000), Infinity)).toBe(false);
  });
});
