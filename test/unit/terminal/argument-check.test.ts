import { describe, expect, test } from "bun:test";
import { checkArguments } from "../../../src/terminal/argument-check.ts";
import { CliError } from "../../../src/terminal/cli-error.ts";

const schema = {
  type: "object",
  properties: {
    a: { type: "number" },
    b: { type: "number" },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" } },
    box: { type: "object", properties: { width: { type: "integer", minimum: 1 } }, required: ["width"] },
    url: { type: "string", format: "uri" },
  },
  required: ["a", "b"],
  additionalProperties: false,
};

/** The usage error's message, or undefined when the arguments pass. */
function refusal(args: Record<string, unknown>, inputSchema: Record<string, unknown> = schema): string | undefined {
  try {
    checkArguments(args, inputSchema);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return (error as CliError).message;
  }
}

describe("checkArguments refuses, naming the argument and what was expected", () => {
  test("a string for a number", () => {
    expect(refusal({ a: "x", b: 1 })).toBe(`argument 'a': expected number, got a string "x"`);
  });

  test("required arguments left out, all of them", () => {
    expect(refusal({})).toBe("missing required arguments 'a', 'b': add a=... b=... (or put them in --json)");
  });

  test("a value outside an enum", () => {
    expect(refusal({ a: 1, b: 2, mode: "medium" })).toContain(`argument 'mode' does not match the tool's input schema`);
  });

  test("a value outside an enum of 10 000 values: still one short line", () => {
    const huge = { type: "object", properties: { v: { enum: Array.from({ length: 10_000 }, (_, i) => `value-${i}`) } } };
    const message = refusal({ v: "other" }, huge);
    expect(message).toStartWith("argument 'v' does not match the tool's input schema: ");
    expect(message).toEndWith(`(got a string "other")`);
    expect(message!.length).toBeLessThan(400);
  });

  test("a wrong item in an array, by its index", () => {
    expect(refusal({ a: 1, b: 2, tags: ["x", 3] })).toBe("argument 'tags[1]': expected string, got a number 3");
  });

  test("a nested object: its missing property, and a value below a minimum", () => {
    expect(refusal({ a: 1, b: 2, box: {} })).toBe("argument 'box' lacks its required property 'width'");
    expect(refusal({ a: 1, b: 2, box: { width: 0 } })).toContain("argument 'box.width' does not match the tool's input schema: 0 is less than 1");
  });

  test("a key the schema forbids, with the keys it has", () => {
    expect(refusal({ a: 1, b: 2, mod: "fast" })).toStartWith("unknown argument 'mod'. Did you mean: mode");
  });

  test("a draft-07 schema is read as draft-07 (tuple items)", () => {
    const tuple = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } };
    expect(refusal({ pair: ["x", 1] }, tuple)).toBeUndefined();
    expect(refusal({ pair: ["x", "y"] }, tuple)).toBe(`argument 'pair[1]': expected number, got a string "y"`);
  });
});

describe("checkArguments lets the server decide where a check would be wrong or impossible", () => {
  test("valid arguments pass", () => {
    expect(refusal({ a: 1, b: 2, mode: "fast", tags: ["x"], box: { width: 3 } })).toBeUndefined();
  });

  test("a required argument with a default may be left out (Playwright's browser_take_screenshot)", () => {
    const screenshot = { type: "object", properties: { scale: { type: "number", default: 1 }, name: { type: "string" } }, required: ["scale"] };
    expect(refusal({}, screenshot)).toBeUndefined();
  });

  test("format is not asserted, and a property named format is still checked", () => {
    expect(refusal({ a: 1, b: 2, url: "not a uri" })).toBeUndefined();
    const named = { type: "object", properties: { format: { type: "string" } } };
    expect(refusal({ format: 1 }, named)).toBe("argument 'format': expected string, got a number 1");
  });

  const unusable: [string, Record<string, unknown>][] = [
    ["a remote $ref", { $ref: "https://schemas.example/tool.json" }],
    ["a pattern that is no regular expression", { type: "object", properties: { a: { type: "string", pattern: "(" } } }],
    ["a schema 100 levels deep", nest(100)],
    ["a schema of 20 000 properties", { type: "object", properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: "string" }])), required: ["p0"] }],
    ["a schema that is not an object at all", { type: 42, properties: "nope" }],
  ];
  for (const [what, inputSchema] of unusable) {
    test(`${what}: sent unchecked, never refused`, () => {
      expect(refusal({ a: "anything" }, inputSchema)).toBeUndefined();
    });
  }
});

function nest(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: "number" };
  for (let i = 0; i < depth; i++) node = { type: "object", properties: { a: node }, required: ["a"] };
  return node;
}
