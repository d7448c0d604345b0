import { expect, test } from "bun:test";
import { jsonForTerminal } from "../../../src/terminal/terminal-json.ts";

const HOSTILE = "ls \u009b2J\u009d0;title\u0007 \u202egnp.exe\u202c \u2066x\u2069 \u200f \u007f \u2028 \u2029 \u001b[31m";

test("C1, DEL, bidi and line-separator characters come out as \\u escapes, in values and in keys", () => {
  const json = jsonForTerminal({ [`k\u202e`]: HOSTILE, list: [HOSTILE] }, 2);
  expect(json).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\u001b]/);
  expect(json).toContain("\\u009b2J\\u009d0;title\\u0007");
  expect(json).toContain('"k\\u202e"');
  expect(json).toContain("\\u202egnp.exe\\u202c");
  expect(json).toContain("\\u007f");
  expect(json).toContain("\\u2028");
});

test("the document parses back to exactly the same value", () => {
  const value = { [`k\u202e`]: HOSTILE, n: 1.5, ok: true, none: null, nested: { list: [HOSTILE, "中文 emoji 🐈"] } };
  expect(JSON.parse(jsonForTerminal(value))).toEqual(value);
  expect(JSON.parse(jsonForTerminal(value, 2))).toEqual(value);
});

test("plain text is written as JSON.stringify writes it", () => {
  const value = { text: "hello, 世界 🐈 \"quoted\" \\ back", n: [1, 2] };
  expect(jsonForTerminal(value, 2)).toBe(JSON.stringify(value, null, 2));
  expect(jsonForTerminal(value)).toBe(JSON.stringify(value));
});
