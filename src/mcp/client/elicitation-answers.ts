/**
 * The answers to a form-mode elicitation, pure: what the user typed turned into the value of its
 * field, and every value checked against the field's rules (type, lengths, formats, bounds,
 * options) before it may be sent. Defaults count as answers and pass the same checks.
 */
import { cutText as cut } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { type Checked, checkValue, type ElicitationForm, type ElicitContent, type ElicitValue, type FormField, type Option } from "./elicitation-form.ts";

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
