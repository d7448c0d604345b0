/**
 * The answers to a form-mode elicitation, pure: what the user typed turned into the value of its
 * field, and every value checked against the field's rules (type, lengths, formats, bounds,
 * options) before it may be sent. Defaults count as answers and pass the same checks.
 */
import { cutText as cut } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import type { ElicitationForm, ElicitContent, ElicitValue, FormField, Option, StringFormat } from "./elicitation-form.ts";

/** A typed (or default) text answer longer than this is refused, whatever the schema allows. */
export const MAX_ANSWER_CHARS = 10_000;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Turns what the user typed for `field` into its value. An empty answer takes the default; without
 * one it leaves an optional field out (`value: undefined`) and is refused for a required one.
 */
export function answerField(field: FormField, typed: string): Checked<ElicitValue | undefined> {
  const text = typed.trim();
  if (text === "") {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? { ok: false, reason: "an answer is required" } : { ok: true, value: undefined };
  }
  const value = convert(field, text);
  if (!value.ok) return value;
  return checkValue(field, value.value);
}

function convert(field: FormField, text: string): Checked<ElicitValue> {
  switch (field.kind) {
    case "text":
      return { ok: true, value: text };
    case "number": {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return { ok: false, reason: `${JSON.stringify(cut(text, 40))} is not a number` };
      return { ok: true, value: Number(text) };
    }
    case "boolean": {
      const answer = text.toLowerCase();
      if (["y", "yes", "true"].includes(answer)) return { ok: true, value: true };
      if (["n", "no", "false"].includes(answer)) return { ok: true, value: false };
      return { ok: false, reason: "answer y or n" };
    }
    case "choice": {
      const option = pickOption(field.options, text);
      return option ? { ok: true, value: option.value } : { ok: false, reason: `choose a number from 1 to ${field.options.length}` };
    }
    case "choices": {
      const picked: string[] = [];
      for (const part of text.split(/[\s,]+/).filter((part) => part !== "")) {
        const option = pickOption(field.options, part);
        if (!option) return { ok: false, reason: `${JSON.stringify(cut(part, 40))} is not one of the numbers 1 to ${field.options.length}` };
        if (!picked.includes(option.value)) picked.push(option.value);
      }
      return { ok: true, value: picked };
    }
  }
}

/** An option by its number in the list, or by its value as written. */
function pickOption(options: Option[], text: string): Option | undefined {
  if (/^\d+$/.test(text)) return options[Number(text) - 1];
  return options.find((option) => option.value === text);
}

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

/** The answers the form starts with: every default (SEP-1034), for a user who presses Enter throughout. */
export function defaultContent(form: ElicitationForm): ElicitContent {
  return Object.fromEntries(form.fields.flatMap((field) => (field.default === undefined ? [] : [[field.name, field.default]])));
}

/**
 * Checks a whole answer against the form: every required field present, every value valid, no
 * field the form did not ask for. For answers that did not come through answerField.
 */
export function checkContent(form: ElicitationForm, content: unknown): Checked<ElicitContent> {
  if (!isPlainObject(content)) return { ok: false, reason: "the answer must be an object" };
  const names = new Set(form.fields.map((field) => field.name));
  const unknown = Object.keys(content).find((name) => !names.has(name));
  if (unknown !== undefined) return { ok: false, reason: `the form has no field ${JSON.stringify(cut(unknown, 40))}` };
  const entries: [string, ElicitValue][] = [];
  for (const field of form.fields) {
    const value = content[field.name];
    if (value === undefined) {
      if (field.required) return { ok: false, reason: `${field.name}: an answer is required` };
      continue;
    }
    const checked = checkValue(field, value);
    if (!checked.ok) return { ok: false, reason: `${field.name}: ${checked.reason}` };
    entries.push([field.name, checked.value]);
  }
  // fromEntries defines each key as its own property: a field named __proto__ stays a field.
  return { ok: true, value: Object.fromEntries(entries) };
}
