import { expect, test } from "bun:test";
import * as v from "valibot";
import { keepingEveryKey, stringsObject } from "../../../src/system/whole-object.ts";

/** Parsed from JSON, as every object these schemas check: own keys of any name. */
const arriving = (json: string) => JSON.parse(json) as unknown;

const Block = keepingEveryKey(v.looseObject({ type: v.string(), count: v.optional(v.number(), 0) }));

test("a loose object keeps constructor, prototype and __proto__ as keys, after what it names, with its defaults", () => {
  const parsed = v.parse(Block, arriving('{"type":"t","constructor":"c","prototype":{"p":1},"__proto__":{"polluted":true},"other":2}'));
  expect(JSON.stringify(parsed)).toBe('{"type":"t","count":0,"other":2,"__proto__":{"polluted":true},"constructor":"c","prototype":{"p":1}}');
  // A key, never the prototype: nothing reaches the object's own lookups or Object.prototype.
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect((parsed as Record<string, unknown>).polluted).toBeUndefined();
});

test("what the loose object names is checked as before, nested too; a failure keeps valibot's issue and path", () => {
  const Outer = keepingEveryKey(v.looseObject({ blocks: v.array(Block) }));
  const nested = v.parse(Outer, arriving('{"blocks":[{"type":"a","constructor":1}],"constructor":2}'));
  expect(JSON.stringify(nested)).toBe('{"blocks":[{"type":"a","count":0,"constructor":1}],"constructor":2}');
  const bad = v.safeParse(Outer, arriving('{"blocks":[{"type":3}],"constructor":2}'));
  expect(bad.success ? undefined : bad.issues.map((issue) => [issue.path?.map((item) => item.key).join("."), issue.expected])).toEqual([["blocks.0.type", "string"]]);
  expect(v.safeParse(Outer, "not an object").success).toBe(false);
});

test("an object of strings keeps every key; a non-object and a non-string value each get their message", () => {
  const Env = stringsObject("not an object", "not a string");
  expect(JSON.stringify(v.parse(Env, arriving('{"constructor":"c","__proto__":"q"}')))).toBe('{"constructor":"c","__proto__":"q"}');
  const messages = (input: unknown) => {
    const parsed = v.safeParse(Env, input);
    return parsed.success ? [] : parsed.issues.map((issue) => issue.message);
  };
  expect([messages([]), messages(null), messages({ A: 1 })]).toEqual([["not an object"], ["not an object"], ["not a string"]]);
});
