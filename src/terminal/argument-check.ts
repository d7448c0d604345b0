import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import type { JsonSchema } from "../agent/tool.ts";
import { log } from "../log.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { CliError } from "./cli-error.ts";
import { unknownNameMessage } from "./suggest.ts";

/** A tool's schema comes from the server: beyond these it is not used, and the call goes unchecked. */
const MAX_SCHEMA_DEPTH = 32;
const MAX_SCHEMA_NODES = 10_000;
const MAX_REASON_CHARS = 200;

/** Keywords whose value is one schema or a list of schemas. */
const SUBSCHEMA_KEYWORDS = new Set([
  "items", "prefixItems", "additionalItems", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
  "contains", "propertyNames", "not", "if", "then", "else", "anyOf", "allOf", "oneOf",
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Errors that only say a subschema failed: the one to report is the error below them. */
const WRAPPER_KEYWORDS = new Set([...SUBSCHEMA_KEYWORDS, ...SCHEMA_MAP_KEYWORDS, "$ref", "$dynamicRef", "$recursiveRef"]);

/**
 * Checks a call's arguments against the tool's `inputSchema` with a real JSON Schema validator
 * (draft 2020-12 unless `$schema` names another), before anything is sent. Throws a usage error
 * naming the argument and what was expected (argumentProblem's message).
 */
export function checkArguments(args: Record<string, unknown>, inputSchema: JsonSchema): void {
  const problem = argumentProblem(args, inputSchema);
  if (problem !== undefined) throw CliError.usage(problem);
}

/**
 * What is wrong with a call's arguments, in one line for the user, or undefined when nothing is.
 * Cold, `mcp call` asks it itself; warm, the keeper asks it against the schema it holds, so the
 * command loads no validator and prints the same line (issue 32). Servers are lenient where their
 * schemas are strict, so the check is too: a required argument with a `default` may be left out
 * (the server fills it in), `format` is not asserted, and a schema the validator cannot use (too
 * large, too deep, a remote `$ref`, a bad pattern) means the call goes unchecked and the server
 * decides. A `null` on an argument that is not required counts as left out (clients send it so;
 * the spec treats it as absent, e.g. for x-mcp-header); it is still sent as given.
 */
export function argumentProblem(args: Record<string, unknown>, inputSchema: JsonSchema): string | undefined {
  let errors: OutputUnit[];
  let schema: Schema;
  try {
    schema = lenientSchema(inputSchema, { nodes: 0 }, 0) as Schema;
    const result = new Validator(schema, draftOf(inputSchema), false).validate(withoutOptionalNulls(args, schema));
    if (result.valid) return undefined;
    errors = result.errors;
  } catch (error) {
    log.debug(`the tool's input schema cannot be used (${(error as Error).message}); sending the arguments unchecked`);
    return undefined;
  }
  return describeFailure(args, schema, errors);
}

/** The arguments without the top-level nulls of properties the schema does not require. */
function withoutOptionalNulls(args: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.fromEntries(Object.entries(args).filter(([name, value]) => value !== null || required.has(name)));
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const id = typeof schema.$schema === "string" ? schema.$schema : "";
  if (id.includes("draft-04")) return "4";
  if (id.includes("draft-07") || id.includes("draft-06")) return "7";
  if (id.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** A copy of the schema, bounded, without `format`, with defaulted properties no longer required. */
function lenientSchema(node: unknown, count: { nodes: number }, depth: number): unknown {
  if (depth > MAX_SCHEMA_DEPTH) throw new Error(`deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (++count.nodes > MAX_SCHEMA_NODES) throw new Error(`more than ${MAX_SCHEMA_NODES} parts`);
  if (Array.isArray(node)) return node.map((item) => lenientSchema(item, count, depth + 1));
  if (!isPlainObject(node)) return node;
  checkShape(node);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "format") continue;
    if (SUBSCHEMA_KEYWORDS.has(key)) copy[key] = lenientSchema(value, count, depth + 1);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(value)) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, lenientSchema(sub, count, depth + 1)]));
    } else copy[key] = value;
  }
  const properties = copy.properties;
  if (Array.isArray(copy.required) && isPlainObject(properties)) {
    copy.required = copy.required.filter((name) => !(typeof name === "string" && isPlainObject(properties[name]) && "default" in properties[name]));
  }
  return copy;
}

const TYPE_NAMES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** The validator trusts a schema's shape; a malformed one would refuse good arguments, so it is not used. */
function checkShape(node: Record<string, unknown>): void {
  const { type, required, properties, enum: values } = node;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (!types.every((t) => typeof t === "string" && TYPE_NAMES.has(t))) throw new Error(`"type" ${JSON.stringify(type)} is not a JSON type`);
  if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string"))) throw new Error('"required" is not a list of names');
  if (properties !== undefined && !isPlainObject(properties)) throw new Error('"properties" is not an object');
  if (values !== undefined && !Array.isArray(values)) throw new Error('"enum" is not a list');
}

/** One line: the missing arguments, or the first argument that is wrong and what was expected. */
function describeFailure(args: Record<string, unknown>, schema: Schema, errors: OutputUnit[]): string {
  const missing = errors
    .filter((error) => error.keyword === "required" && error.instanceLocation === "#")
    .map((error) => /required property "(.*)"/.exec(error.error)?.[1] ?? "?");
  if (missing.length > 0) {
    const example = missing.map((key) => `${key}=...`).join(" ");
    const them = missing.length > 1 ? "them" : "it";
    return `missing required argument${missing.length > 1 ? "s" : ""} ${missing.map((k) => `'${k}'`).join(", ")}: add ${example} (or put ${them} in --json)`;
  }
  const leaf = errors.find((error) => !WRAPPER_KEYWORDS.has(error.keyword)) ?? errors[0];
  if (!leaf) return "the arguments do not match the tool's input schema";
  const segments = pointerSegments(leaf.instanceLocation);
  const path = segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
  const value = segments.reduce<unknown>((at, s) => (isPlainObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[s] : undefined), args);
  if (leaf.keyword === "false" && segments.length === 1) {
    return unknownNameMessage("argument", path, Object.keys(isPlainObject(schema.properties) ? schema.properties : {}));
  }
  if (leaf.keyword === "false") return `argument '${path}' is not allowed by the tool's input schema`;
  if (leaf.keyword === "required") {
    return `argument '${path}' lacks its required property '${/required property "(.*)"/.exec(leaf.error)?.[1] ?? "?"}'`;
  }
  const got = `got ${preview(value)}`;
  if (leaf.keyword === "type") {
    const expected = /Expected (.*)\.$/.exec(leaf.error)?.[1]?.replaceAll('"', "") ?? "another type";
    return `argument '${path}': expected ${expected}, ${got}`;
  }
  // The validator's text quotes the schema (an enum may list thousands of values): keep it to a line.
  const reason = leaf.error.length > MAX_REASON_CHARS ? `${leaf.error.slice(0, MAX_REASON_CHARS)}…` : leaf.error;
  return `argument '${path}' does not match the tool's input schema: ${reason} (${got})`;
}

function pointerSegments(location: string): string[] {
  return location
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")
    .map((s) => decodeURIComponent(s).replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value as the user gave it, short: `"x"` (a string), `[1,2]`, `{"a":1}`. */
function preview(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  if (value === null) return "null";
  const kind = Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
  return `${kind} ${json.length > 40 ? `${json.slice(0, 40)}…` : json}`;
}
