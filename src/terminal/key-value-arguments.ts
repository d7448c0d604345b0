import type { JsonSchema } from "../agent/tool.ts";
import { CliError } from "./cli-error.ts";
import { unknownNameMessage } from "./suggest.ts";

/**
 * `key=value` arguments, typed by the tool's input schema: a `string` property stays a string even
 * for `123`; numbers, integers and booleans are converted; arrays and objects are read as JSON.
 * A key the schema does not have is refused, with the keys it does have.
 */
export function parseKeyValueArguments(pairs: string[], schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const openEnded = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const result: Record<string, unknown> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw CliError.usage(`expected key=value, got '${pair}'`);
    const key = pair.slice(0, equals);
    const raw = pair.slice(equals + 1);
    const property = properties[key];
    if (!property && !openEnded) throw CliError.usage(unknownNameMessage("argument", key, Object.keys(properties)));
    result[key] = convert(key, raw, property ? schemaType(property) : undefined);
  }
  return result;
}

/** The JSON type a property asks for; for `["string", "null"]`, the first that is not null. */
function schemaType(property: JsonSchema): string | undefined {
  const type = property.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t) => t !== "null");
  if (Array.isArray(property.enum) && property.enum.every((item) => typeof item === "string")) return "string";
  return undefined;
}

function convert(key: string, raw: string, type: string | undefined): unknown {
  switch (type) {
    case "string":
      return raw;
    case "number":
    case "integer": {
      const value = raw.trim() === "" ? Number.NaN : Number(raw);
      if (!Number.isFinite(value)) throw CliError.usage(`${key}=${raw}: expected a number`);
      if (type === "integer" && !Number.isInteger(value)) throw CliError.usage(`${key}=${raw}: expected a whole number`);
      return value;
    }
    case "boolean":
      if (/^(true|yes|1)$/i.test(raw)) return true;
      if (/^(false|no|0)$/i.test(raw)) return false;
      throw CliError.usage(`${key}=${raw}: expected true or false`);
    case "array":
    case "object": {
      const value = parseJson(raw);
      const isArray = Array.isArray(value);
      const matches = type === "array" ? isArray : typeof value === "object" && value !== null && !isArray;
      if (!matches) throw CliError.usage(`${key}=${raw}: expected a JSON ${type}`);
      return value;
    }
    default: {
      // No declared type: JSON where it parses (numbers, booleans, objects), else the text.
      const value = parseJson(raw);
      return value === undefined ? raw : value;
    }
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
