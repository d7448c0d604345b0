import { CliError } from "../../terminal/cli-error.ts";

/**
 * `key=value` words as strings (a prompt's arguments, a URI template's variables: both are strings
 * only). The value may hold `=`; a word without a key, or a key given twice, is a usage error.
 */
export function parseStringPairs(pairs: string[], kind: "argument" | "variable"): Record<string, string> {
  // No prototype: a key such as `__proto__` or `constructor` is a key like any other.
  const values: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw CliError.usage(`expected key=value, got '${pair}'`);
    const key = pair.slice(0, equals);
    if (Object.hasOwn(values, key)) throw CliError.usage(`${kind} '${key}' is given twice`);
    values[key] = pair.slice(equals + 1);
  }
  return values;
}
