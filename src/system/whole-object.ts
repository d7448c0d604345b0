import * as v from "valibot";
import { isPlainObject } from "./plain-object.ts";

/**
 * The own keys valibot's `record`, `looseObject` and `objectWithRest` silently leave out of what they
 * build (a guard of theirs against prototype pollution). To a server, a project file or a command
 * they are names like any other: a tool's arguments, an environment, a result may hold them.
 */
const DROPPED_KEYS = ["__proto__", "constructor", "prototype"] as const;

/**
 * A JSON object taken whole, every own key kept (what `v.record(v.string(), v.unknown())` would
 * check). The object is the one JSON.parse made: its keys are all its own.
 */
export const WholeObject = v.custom<Record<string, unknown>>(isPlainObject, "must be an object");

/** A JSON object of strings taken whole (an environment, headers): `notObject` when it is no object, `notString` when a value is no string. */
export function stringsObject(notObject: string, notString: string = notObject) {
  return v.pipe(
    v.custom<Record<string, string>>(isPlainObject, notObject),
    v.check((value) => Object.values(value).every((item) => typeof item === "string"), notString),
  );
}

/**
 * `schema`, a `v.looseObject`, with the keys valibot dropped put back from the input: the keys it
 * does not name pass through unchecked anyway, so what it names is checked as before and nothing is lost.
 */
export function keepingEveryKey<TSchema extends v.GenericSchema<unknown, Record<string, unknown>>>(schema: TSchema): TSchema {
  return {
    ...schema,
    "~run"(dataset, config) {
      const input = dataset.value;
      const output = schema["~run"](dataset, config);
      if (!output.typed || !isPlainObject(input)) return output;
      for (const key of DROPPED_KEYS) {
        if (!Object.hasOwn(input, key) || Object.hasOwn(output.value, key)) continue;
        // defineProperty, not assignment: `__proto__` must stay a key, not become the prototype.
        Object.defineProperty(output.value, key, { value: input[key], enumerable: true, writable: true, configurable: true });
      }
      return output;
    },
  };
}
