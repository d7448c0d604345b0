/**
 * The form of a form-mode elicitation, pure: a `requestedSchema` (the spec allows only a flat object
 * of primitive properties) turned into fields, and the rules a value must meet to fill one;
 * elicitation-answers.ts turns what is typed into values.
 * Every enum shape of SEP-1330 is read (`enum`, `oneOf` of {const, title}, the legacy `enumNames`,
 * multi-select `type: "array"` with `items.enum` or `items.anyOf`), and defaults are kept for the
 * front end to fill in (SEP-1034). The schema comes from a server: it is bounded here, where it enters.
 */
import { cutText as cut } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";

export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

/** A form longer than this is no form a person fills in at a terminal. */
export const MAX_FIELDS = 50;
export const MAX_OPTIONS = 100;
/** Names and option values go back to the server as they are, so they are refused, not cut. */
export const MAX_NAME_CHARS = 100;
export const MAX_VALUE_CHARS = 1_000;
/** Titles and descriptions are only shown: cut at these lengths. */
export const MAX_TITLE_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 1_000;

export type StringFormat = "email" | "uri" | "date" | "date-time";
const FORMATS: readonly string[] = ["email", "uri", "date", "date-time"];

export interface Option {
  value: string;
  /** The option's title, or its value when it has none. */
  label: string;
}

interface FieldBase {
  /** The property name: the key of the answer. */
  name: string;
  /** The title, or the name when there is none. */
  label: string;
  description?: string;
  required: boolean;
}

export type FormField =
  | (FieldBase & { kind: "text"; minLength?: number; maxLength?: number; format?: StringFormat; default?: string })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "choice"; options: Option[]; default?: string })
  | (FieldBase & { kind: "choices"; options: Option[]; minItems?: number; maxItems?: number; default?: string[] });

export interface ElicitationForm {
  fields: FormField[];
}

export type FormParse = { ok: true; form: ElicitationForm } | { ok: false; reason: string };

class SchemaError extends Error {}

/** Reads a requestedSchema; a schema the spec does not allow gives the reason, never an exception. */
export function parseElicitationForm(schema: unknown): FormParse {
  try {
    if (!isPlainObject(schema)) throw new SchemaError("requestedSchema must be an object");
    if (schema.type !== "object") throw new SchemaError('requestedSchema must have type "object"');
    const { properties, required = [] } = schema;
    if (!isPlainObject(properties)) throw new SchemaError("requestedSchema.properties must be an object");
    if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
      throw new SchemaError("requestedSchema.required must be a list of names");
    }
    const entries = Object.entries(properties);
    if (entries.length > MAX_FIELDS) throw new SchemaError(`it asks for ${entries.length} fields (at most ${MAX_FIELDS})`);
    const requiredNames = new Set(required);
    const fields = entries.map(([name, property]) => parseField(name, property, requiredNames.has(name)));
    return { ok: true, form: { fields } };
  } catch (error) {
    if (error instanceof SchemaError) return { ok: false, reason: error.message };
    throw error;
  }
}

function parseField(name: string, property: unknown, required: boolean): FormField {
  const fail = (reason: string): never => {
    throw new SchemaError(`field ${JSON.stringify(cut(name, 40))} ${reason}`);
  };
  if (name === "" || name.length > MAX_NAME_CHARS) fail(`must have a name of 1 to ${MAX_NAME_CHARS} characters`);
  if (!isPlainObject(property)) return fail("must be a schema object");
  const text = (key: string, max: number): string | undefined => {
    const value = property[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") return fail(`has a ${key} that is not a string`);
    return cut(value, max);
  };
  const count = (key: string): number | undefined => {
    const value = property[key];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) return fail(`has a ${key} that is not a whole number`);
    return value;
  };
  const bound = (key: string): number | undefined => {
    const value = property[key];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) return fail(`has a ${key} that is not a number`);
    return value;
  };
  const base: FieldBase = { name, label: text("title", MAX_TITLE_CHARS) ?? name, required };
  const description = text("description", MAX_DESCRIPTION_CHARS);
  if (description !== undefined) base.description = description;
  const given = property.default;
  const type = property.type;

  let field: FormField;
  if (type === "string" && (property.enum !== undefined || property.oneOf !== undefined)) {
    const options = property.enum !== undefined ? enumOptions(property.enum, property.enumNames, fail) : titledOptions(property.oneOf, "oneOf", fail);
    if (given !== undefined && typeof given !== "string") fail("has a default that is not a string");
    field = { ...base, kind: "choice", options, default: given as string | undefined };
  } else if (type === "string") {
    const rawFormat = property.format;
    // An unknown format is no reason to refuse the form: the server checks its own data.
    const format = typeof rawFormat === "string" && FORMATS.includes(rawFormat) ? (rawFormat as StringFormat) : undefined;
    if (given !== undefined && typeof given !== "string") fail("has a default that is not a string");
    field = { ...base, kind: "text", minLength: count("minLength"), maxLength: count("maxLength"), format, default: given as string | undefined };
  } else if (type === "number" || type === "integer") {
    if (given !== undefined && typeof given !== "number") fail("has a default that is not a number");
    field = { ...base, kind: "number", integer: type === "integer", minimum: bound("minimum"), maximum: bound("maximum"), default: given as number | undefined };
  } else if (type === "boolean") {
    if (given !== undefined && typeof given !== "boolean") fail("has a default that is not true or false");
    field = { ...base, kind: "boolean", default: given as boolean | undefined };
  } else if (type === "array") {
    const items = property.items;
    if (!isPlainObject(items)) return fail("is a list without items: only a list of enum values is allowed");
    if (items.enum === undefined && items.anyOf === undefined) fail("is a list whose items are not enum values");
    if (items.enum !== undefined && items.type !== undefined && items.type !== "string") fail("is a list of enum values that are not strings");
    const options = items.enum !== undefined ? enumOptions(items.enum, undefined, fail) : titledOptions(items.anyOf, "items.anyOf", fail);
    if (given !== undefined && !(Array.isArray(given) && given.every((value) => typeof value === "string"))) fail("has a default that is not a list of strings");
    field = { ...base, kind: "choices", options, minItems: count("minItems"), maxItems: count("maxItems"), default: given as string[] | undefined };
  } else {
    return fail(`has type ${JSON.stringify(cut(String(type), 20))}: a form allows string, number, integer, boolean, or a list of enum values`);
  }
  // A default that breaks the field's own rules is not offered: Enter must never send what we would refuse.
  if (field.default !== undefined && !checkValue(field, field.default).ok) delete field.default;
  for (const key of Object.keys(field) as (keyof FormField)[]) if (field[key] === undefined) delete field[key];
  return field;
}

function enumOptions(values: unknown, names: unknown, fail: (reason: string) => never): Option[] {
  if (!Array.isArray(values)) return fail("has an enum that is not a list of strings");
  tooMany(values.length, fail);
  if (!values.every((value) => typeof value === "string")) return fail("has an enum that is not a list of strings");
  // enumNames is deprecated (SEP-1330) but still sent; a malformed one is only a missing title.
  const titles = Array.isArray(names) ? names : [];
  return checkedOptions(
    values.map((value, i) => ({ value, label: typeof titles[i] === "string" ? titles[i] : value })),
    fail,
  );
}

function titledOptions(entries: unknown, key: string, fail: (reason: string) => never): Option[] {
  if (!Array.isArray(entries)) return fail(`has a ${key} that is not a list`);
  tooMany(entries.length, fail);
  const options = entries.map((entry) => {
    if (!isPlainObject(entry) || typeof entry.const !== "string") return fail(`has a ${key} entry without a string const`);
    return { value: entry.const, label: typeof entry.title === "string" ? entry.title : entry.const };
  });
  return checkedOptions(options, fail);
}

/** Counted before the options are read: a list of a million is refused without walking it. */
function tooMany(count: number, fail: (reason: string) => never): void {
  if (count > MAX_OPTIONS) fail(`has ${count} options (at most ${MAX_OPTIONS})`);
}

function checkedOptions(options: Option[], fail: (reason: string) => never): Option[] {
  if (options.length === 0) fail("has no options to choose from");
  if (options.some((option) => option.value.length > MAX_VALUE_CHARS)) fail(`has an option longer than ${MAX_VALUE_CHARS} characters`);
  return options.map((option) => ({ value: option.value, label: cut(option.label, MAX_TITLE_CHARS) }));
}

/** A typed (or default) text answer longer than this is refused, whatever the schema allows. */
export const MAX_ANSWER_CHARS = 10_000;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Whether `value` is a valid answer for `field`: its type and every rule of the schema. */
export function checkValue(field: FormField, value: unknown): Checked<ElicitValue> {
  const fail = (reason: string): Checked<ElicitValue> => ({ ok: false, reason });
  switch (field.kind) {
    case "text": {
      if (typeof value !== "string") return fail("must be text");
      const length = value.length > MAX_ANSWER_CHARS ? Infinity : [...value].length;
      if (length > MAX_ANSWER_CHARS) return fail(`at most ${MAX_ANSWER_CHARS} characters`);
      if (field.minLength !== undefined && length < field.minLength) return fail(`at least ${field.minLength} characters`);
      if (field.maxLength !== undefined && length > field.maxLength) return fail(`at most ${field.maxLength} characters`);
      if (field.format && !matchesFormat(field.format, value)) return fail(FORMAT_HINTS[field.format]);
      return { ok: true, value };
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("must be a number");
      if (field.integer && !Number.isSafeInteger(value)) return fail("must be a whole number");
      if (field.minimum !== undefined && value < field.minimum) return fail(`must be at least ${field.minimum}`);
      if (field.maximum !== undefined && value > field.maximum) return fail(`must be at most ${field.maximum}`);
      return { ok: true, value };
    }
    case "boolean":
      return typeof value === "boolean" ? { ok: true, value } : fail("must be true or false");
    case "choice":
      return typeof value === "string" && field.options.some((option) => option.value === value) ? { ok: true, value } : fail("must be one of the options");
    case "choices": {
      if (!Array.isArray(value) || !value.every((item) => field.options.some((option) => option.value === item))) return fail("must be a list of the options");
      if (new Set(value).size !== value.length) return fail("names an option twice");
      if (field.minItems !== undefined && value.length < field.minItems) return fail(`choose at least ${field.minItems}`);
      if (field.maxItems !== undefined && value.length > field.maxItems) return fail(`choose at most ${field.maxItems}`);
      return { ok: true, value: [...value] as string[] };
    }
  }
}

const FORMAT_HINTS: Record<StringFormat, string> = {
  email: "must be an email address (name@example.com)",
  uri: "must be a URI with a scheme (https://example.com)",
  date: "must be a date (YYYY-MM-DD)",
  "date-time": "must be a date and time (YYYY-MM-DDThh:mm:ssZ)",
};

function matchesFormat(format: StringFormat, text: string): boolean {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@]+$/.test(text);
    case "uri":
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text) && URL.canParse(text);
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text);
    case "date-time":
      // RFC 3339: a date, T, a time with seconds and an offset.
      return /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i.test(text) && isCalendarDate(text.slice(0, 10));
  }
}

/** 2026-02-30 has the right shape and is no date. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
