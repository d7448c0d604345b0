import { describe, expect, test } from "bun:test";
import { answerField, checkContent, defaultContent } from "../../../../src/mcp/client/elicitation-answers.ts";
import {
  MAX_FIELDS,
  MAX_OPTIONS,
  parseElicitationForm,
  type ElicitationForm,
  type FormField,
} from "../../../../src/mcp/client/elicitation-form.ts";

function formOf(properties: Record<string, unknown>, required: string[] = []): ElicitationForm {
  const parsed = parseElicitationForm({ type: "object", properties, required });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.form;
}

function fieldOf(property: Record<string, unknown>, required = false): FormField {
  return formOf({ f: property }, required ? ["f"] : []).fields[0]!;
}

function reasonFor(schema: unknown): string {
  const parsed = parseElicitationForm(schema);
  if (parsed.ok) throw new Error("the schema was accepted");
  return parsed.reason;
}

describe("every field type of the spec becomes a field", () => {
  test("a string with its title, description, lengths, format and default", () => {
    expect(fieldOf({ type: "string", title: "E-mail", description: "Where we write", minLength: 3, maxLength: 50, format: "email", default: "a@b.c" }, true)).toEqual({
      name: "f",
      label: "E-mail",
      description: "Where we write",
      required: true,
      kind: "text",
      minLength: 3,
      maxLength: 50,
      format: "email",
      default: "a@b.c",
    });
  });

  test("number and integer with their bounds; the name stands in for a missing title", () => {
    expect(fieldOf({ type: "integer", minimum: 0, maximum: 10, default: 5 })).toEqual({ name: "f", label: "f", required: false, kind: "number", integer: true, minimum: 0, maximum: 10, default: 5 });
    expect(fieldOf({ type: "number", default: 95.5 })).toMatchObject({ kind: "number", integer: false, default: 95.5 });
  });

  test("boolean", () => {
    expect(fieldOf({ type: "boolean", default: false })).toMatchObject({ kind: "boolean", default: false });
  });

  test("single-select: plain enum, oneOf of const/title, and the legacy enumNames", () => {
    expect(fieldOf({ type: "string", enum: ["Red", "Green"], default: "Green" })).toMatchObject({
      kind: "choice",
      options: [{ value: "Red", label: "Red" }, { value: "Green", label: "Green" }],
      default: "Green",
    });
    expect(fieldOf({ type: "string", oneOf: [{ const: "#f00", title: "Red" }, { const: "#0f0", title: "Green" }], default: "#f00" })).toMatchObject({
      kind: "choice",
      options: [{ value: "#f00", label: "Red" }, { value: "#0f0", label: "Green" }],
      default: "#f00",
    });
    expect(fieldOf({ type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] })).toMatchObject({
      options: [{ value: "r", label: "Red" }, { value: "g", label: "Green" }],
    });
  });

  test("multi-select: items.enum and items.anyOf, with item bounds and a list default", () => {
    expect(fieldOf({ type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b", "c"] }, default: ["a", "b"] })).toMatchObject({
      kind: "choices",
      options: [{ value: "a" }, { value: "b" }, { value: "c" }],
      minItems: 1,
      maxItems: 2,
      default: ["a", "b"],
    });
    expect(fieldOf({ type: "array", items: { anyOf: [{ const: "x", title: "Ex" }] } })).toMatchObject({ kind: "choices", options: [{ value: "x", label: "Ex" }] });
  });

  test("required follows the schema's list; an empty form is a form", () => {
    const form = formOf({ a: { type: "string" }, b: { type: "string" } }, ["b"]);
    expect(form.fields.map((field) => [field.name, field.required])).toEqual([["a", false], ["b", true]]);
    expect(parseElicitationForm({ type: "object", properties: {} })).toEqual({ ok: true, form: { fields: [] } });
  });
});

describe("SEP-1034: defaults are filled in", () => {
  const form = formOf({
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive"], default: "active" },
    verified: { type: "boolean", default: true },
    tags: { type: "array", items: { enum: ["a", "b"] }, default: ["b"] },
    note: { type: "string" },
  });

  test("the starting answer holds every default, of its own type, and nothing for a field without one", () => {
    expect(defaultContent(form)).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, tags: ["b"] });
  });

  test("Enter takes the default", () => {
    expect(form.fields.map((field) => answerField(field, ""))).toEqual([
      { ok: true, value: "John Doe" },
      { ok: true, value: 30 },
      { ok: true, value: 95.5 },
      { ok: true, value: "active" },
      { ok: true, value: true },
      { ok: true, value: ["b"] },
      { ok: true, value: undefined },
    ]);
  });

  test("a default that breaks its own field's rules is not offered", () => {
    expect(fieldOf({ type: "string", enum: ["a"], default: "z" })).not.toHaveProperty("default");
    expect(fieldOf({ type: "integer", maximum: 5, default: 9 })).not.toHaveProperty("default");
    expect(fieldOf({ type: "string", format: "email", default: "nobody" })).not.toHaveProperty("default");
  });
});

describe("typed answers are checked and converted", () => {
  test("text: lengths counted in characters, and each format", () => {
    const name = fieldOf({ type: "string", minLength: 2, maxLength: 3 });
    expect(answerField(name, "  ab  ")).toEqual({ ok: true, value: "ab" });
    expect(answerField(name, "a")).toEqual({ ok: false, reason: "at least 2 characters" });
    expect(answerField(name, "abcd")).toEqual({ ok: false, reason: "at most 3 characters" });
    expect(answerField(name, "😀😀")).toEqual({ ok: true, value: "😀😀" });
    const check = (format: string, text: string) => answerField(fieldOf({ type: "string", format }), text).ok;
    expect([check("email", "a@b.example"), check("email", "a b@c"), check("email", "nobody")]).toEqual([true, false, false]);
    expect([check("uri", "https://example.com/x"), check("uri", "example.com")]).toEqual([true, false]);
    expect([check("date", "2026-02-28"), check("date", "2026-02-30"), check("date", "28.02.2026")]).toEqual([true, false, false]);
    expect([check("date-time", "2026-07-28T10:00:00Z"), check("date-time", "2026-07-28T10:00:00+02:00"), check("date-time", "2026-07-28 10:00")]).toEqual([true, true, false]);
    expect(check("uuid", "anything")).toBe(true);
  });

  test("numbers: written as numbers, integers whole, inside the bounds", () => {
    const age = fieldOf({ type: "integer", minimum: 18, maximum: 120 });
    expect(answerField(age, "42")).toEqual({ ok: true, value: 42 });
    expect(answerField(age, "4.5")).toEqual({ ok: false, reason: "must be a whole number" });
    expect(answerField(age, "12")).toEqual({ ok: false, reason: "must be at least 18" });
    expect(answerField(age, "121")).toEqual({ ok: false, reason: "must be at most 120" });
    expect(answerField(age, "forty")).toEqual({ ok: false, reason: '"forty" is not a number' });
    expect(answerField(age, "0x20")).toMatchObject({ ok: false });
    const score = fieldOf({ type: "number" });
    expect(answerField(score, "-1.5e2")).toEqual({ ok: true, value: -150 });
    expect(answerField(score, "1e999")).toEqual({ ok: false, reason: "must be a number" });
  });

  test("booleans: y/n, yes/no, true/false", () => {
    const field = fieldOf({ type: "boolean" });
    expect(["y", "YES", "true", "n", "No", "false"].map((text) => answerField(field, text))).toEqual([
      { ok: true, value: true },
      { ok: true, value: true },
      { ok: true, value: true },
      { ok: true, value: false },
      { ok: true, value: false },
      { ok: true, value: false },
    ]);
    expect(answerField(field, "maybe")).toEqual({ ok: false, reason: "answer y or n" });
  });

  test("single-select: by number in the list or by value", () => {
    const field = fieldOf({ type: "string", oneOf: [{ const: "#f00", title: "Red" }, { const: "#0f0", title: "Green" }] });
    expect(answerField(field, "2")).toEqual({ ok: true, value: "#0f0" });
    expect(answerField(field, "#f00")).toEqual({ ok: true, value: "#f00" });
    expect(answerField(field, "3")).toEqual({ ok: false, reason: "choose a number from 1 to 2" });
  });

  test("multi-select: numbers split by commas or spaces, each once, within the item bounds", () => {
    const field = fieldOf({ type: "array", minItems: 1, maxItems: 2, items: { enum: ["a", "b", "c"] } }, true);
    expect(answerField(field, "1, 3")).toEqual({ ok: true, value: ["a", "c"] });
    expect(answerField(field, "3 3")).toEqual({ ok: true, value: ["c"] });
    expect(answerField(field, "1,2,3")).toEqual({ ok: false, reason: "choose at most 2" });
    expect(answerField(field, "4")).toEqual({ ok: false, reason: '"4" is not one of the numbers 1 to 3' });
    expect(answerField(field, "")).toEqual({ ok: false, reason: "an answer is required" });
  });

  test("an empty answer leaves an optional field out and is refused for a required one", () => {
    expect(answerField(fieldOf({ type: "string" }), "")).toEqual({ ok: true, value: undefined });
    expect(answerField(fieldOf({ type: "string" }, true), " ")).toEqual({ ok: false, reason: "an answer is required" });
  });
});

describe("a whole answer is checked against the form", () => {
  const form = formOf({ name: { type: "string" }, n: { type: "integer" } }, ["name"]);
  test("valid answers pass; a missing required field, a wrong type or an unknown field do not", () => {
    expect(checkContent(form, { name: "x", n: 1 })).toEqual({ ok: true, value: { name: "x", n: 1 } });
    expect(checkContent(form, { n: 1 })).toEqual({ ok: false, reason: "name: an answer is required" });
    expect(checkContent(form, { name: "x", n: "1" })).toEqual({ ok: false, reason: "n: must be a number" });
    expect(checkContent(form, { name: "x", other: 1 })).toEqual({ ok: false, reason: 'the form has no field "other"' });
  });

  test("a field named __proto__ stays an ordinary key of the answer", () => {
    const tricky = formOf(JSON.parse('{"__proto__": {"type": "string"}}'));
    const checked = checkContent(tricky, JSON.parse('{"__proto__": "x"}'));
    expect(checked.ok && JSON.stringify(checked.value)).toBe('{"__proto__":"x"}');
  });
});

describe("a schema the spec does not allow is refused with the reason", () => {
  test("not a flat object of primitives", () => {
    expect(reasonFor(null)).toBe("requestedSchema must be an object");
    expect(reasonFor({ type: "array" })).toBe('requestedSchema must have type "object"');
    expect(reasonFor({ type: "object" })).toBe("requestedSchema.properties must be an object");
    expect(reasonFor({ type: "object", properties: {}, required: "a" })).toBe("requestedSchema.required must be a list of names");
    expect(reasonFor({ type: "object", properties: { a: { type: "object", properties: {} } } })).toBe(
      'field "a" has type "object": a form allows string, number, integer, boolean, or a list of enum values',
    );
    expect(reasonFor({ type: "object", properties: { a: { type: "array", items: { type: "string" } } } })).toBe('field "a" is a list whose items are not enum values');
    expect(reasonFor({ type: "object", properties: { a: "string" } })).toBe('field "a" must be a schema object');
  });

  test("malformed parts: a default of the wrong type, a bad enum, a bad bound", () => {
    expect(reasonFor({ type: "object", properties: { a: { type: "integer", default: "3" } } })).toBe('field "a" has a default that is not a number');
    expect(reasonFor({ type: "object", properties: { a: { type: "string", enum: [1, 2] } } })).toBe('field "a" has an enum that is not a list of strings');
    expect(reasonFor({ type: "object", properties: { a: { type: "string", enum: [] } } })).toBe('field "a" has no options to choose from');
    expect(reasonFor({ type: "object", properties: { a: { type: "string", maxLength: -1 } } })).toBe('field "a" has a maxLength that is not a whole number');
    expect(reasonFor({ type: "object", properties: { a: { type: "string", oneOf: [{ title: "x" }] } } })).toBe('field "a" has a oneOf entry without a string const');
  });

  test("bounded: fields, options, names and values; long titles are cut", () => {
    const many = Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(reasonFor({ type: "object", properties: many })).toBe(`it asks for ${MAX_FIELDS + 1} fields (at most ${MAX_FIELDS})`);
    const options = Array.from({ length: MAX_OPTIONS + 1 }, (_, i) => `o${i}`);
    expect(reasonFor({ type: "object", properties: { a: { type: "string", enum: options } } })).toBe(`field "a" has ${MAX_OPTIONS + 1} options (at most ${MAX_OPTIONS})`);
    expect(reasonFor({ type: "object", properties: { ["n".repeat(101)]: { type: "string" } } })).toContain("must have a name of 1 to 100 characters");
    expect(reasonFor({ type: "object", properties: { a: { type: "string", enum: ["v".repeat(1001)] } } })).toBe('field "a" has an option longer than 1000 characters');
    const label = fieldOf({ type: "string", title: "t".repeat(5000) }).label;
    expect(label.length).toBe(200);
    expect(label.endsWith("…")).toBe(true);
    expect(answerField(fieldOf({ type: "string" }), "x".repeat(10_001))).toEqual({ ok: false, reason: "at most 10000 characters" });
  });
});
