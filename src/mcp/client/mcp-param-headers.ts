import { encodeHeaderValue } from "../header-value.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { MAX_TOOL_DEPTH } from "../../system/json-depth.ts";
import { isPlainObject } from "../../system/plain-object.ts";

/**
 * `x-mcp-header` (2026-07-28, Streamable HTTP): a tool's input schema may mark properties whose
 * argument values the client mirrors into `Mcp-Param-{name}` headers, so gateways can route on them
 * without reading the body. An HTTP client must leave out (with a warning) a tool whose markings
 * break the rules, so that one bad tool costs only itself.
 */

/** One marked property: where its value sits in the arguments, and the header it goes to. */
export interface ParamHeader {
  /** The chain of `properties` keys from the arguments' root. */
  path: readonly string[];
  /** The `{name}` of `Mcp-Param-{name}`, as the server wrote it. */
  headerName: string;
  type: "string" | "integer" | "boolean";
}

export type ParamHeaderCheck = { ok: true; headers: ParamHeader[] } | { ok: false; reason: string };

/** More markings than any real tool has; each becomes a header on every call. */
export const MAX_PARAM_HEADERS = 64;
/** Schema nodes visited before giving up: a definition of a million small schemas is not a tool. */
const MAX_SCHEMA_NODES = 10_000;

/** RFC 9110 `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);

/**
 * Keywords whose values are subschemas a `properties` chain must not pass through (array items,
 * composition, conditionals, definitions a `$ref` may point at). A marking found under one of them
 * makes the tool invalid. Keywords holding data (`default`, `const`, `enum`, `examples`) are not
 * walked: their objects are values, not schemas, and may hold any key.
 */
const SINGLE_SCHEMA = ["items", "additionalItems", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "not", "if", "then", "else"];
const SCHEMA_LISTS = ["prefixItems", "oneOf", "anyOf", "allOf"];
const SCHEMA_MAPS = ["patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];

/**
 * The marked properties of a tool's input schema, or why the tool is invalid, naming the property:
 * a marking that is not a non-empty RFC 9110 token, repeated (ignoring case), on a property whose
 * `type` is not string, integer or boolean, on the root, or reachable only through something other
 * than `properties`. Bounded: a schema nested deeper than MAX_TOOL_DEPTH, with more than
 * MAX_PARAM_HEADERS markings or more than 10,000 subschemas is invalid, at once.
 */
export function checkParamHeaders(inputSchema: unknown): ParamHeaderCheck {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  let nodes = 0;

  const visit = (node: unknown, path: string[], reachable: boolean, depth: number): string | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (depth > MAX_TOOL_DEPTH) return `its input schema is nested deeper than ${MAX_TOOL_DEPTH} levels`;
    if (++nodes > MAX_SCHEMA_NODES) return `its input schema has more than ${MAX_SCHEMA_NODES} subschemas`;
    if (Object.hasOwn(node, "x-mcp-header")) {
      const fault = mark(node, path, reachable);
      if (fault !== undefined) return fault;
    }
    const properties = node.properties;
    if (isPlainObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable, depth + 1);
        if (fault !== undefined) return fault;
      }
    }
    for (const [keyword, child] of subschemas(node)) {
      const fault = visit(child, [...path, `(${keyword})`], false, depth + 1);
      if (fault !== undefined) return fault;
    }
    return undefined;
  };

  const mark = (node: Record<string, unknown>, path: string[], reachable: boolean): string | undefined => {
    const where = path.length === 0 ? "the root of its input schema" : `property ${JSON.stringify(path.join("."))}`;
    const name = node["x-mcp-header"];
    if (path.length === 0 || !reachable) {
      return `x-mcp-header on ${where}: only a property reached through "properties" alone may be marked (not through items, oneOf/anyOf/allOf/not, if/then/else or $ref)`;
    }
    if (typeof name !== "string" || name === "") return `x-mcp-header on ${where} must be a non-empty string`;
    if (!TOKEN.test(name)) {
      return `x-mcp-header ${JSON.stringify(name.slice(0, 80))} on ${where} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
    }
    const type = node.type;
    if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
      return `x-mcp-header on ${where}: the property's type must be string, integer or boolean, not ${JSON.stringify(type) ?? "absent"}`;
    }
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined) return `x-mcp-header ${JSON.stringify(name)} on ${where} repeats ${JSON.stringify(earlier)} (header names ignore case)`;
    if (headers.length === MAX_PARAM_HEADERS) return `its input schema marks more than ${MAX_PARAM_HEADERS} properties with x-mcp-header`;
    seen.set(name.toLowerCase(), name);
    headers.push({ path, headerName: name, type: type as ParamHeader["type"] });
    return undefined;
  };

  const fault = visit(inputSchema, [], true, 0);
  return fault === undefined ? { ok: true, headers } : { ok: false, reason: fault };
}

/** The subschemas of `node` under the keywords a `properties` chain must not pass through. */
function* subschemas(node: Record<string, unknown>): Generator<[string, unknown]> {
  for (const keyword of SINGLE_SCHEMA) {
    // Draft-07 `items` may be a list of schemas.
    const value = node[keyword];
    if (Array.isArray(value)) for (const item of value) yield [keyword, item];
    else if (value !== undefined) yield [keyword, value];
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const item of list) yield [keyword, item];
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = node[keyword];
    if (isPlainObject(map)) for (const item of Object.values(map)) yield [keyword, item];
  }
}

/**
 * The `Mcp-Param-*` headers of one call: each marked property's value, read at its exact path in
 * the arguments, converted (a string as it is, an integer in decimal, a boolean as true/false) and
 * encoded. An absent or null value sends no header. A value that is not a string, number or
 * boolean sends none either: the server validates the arguments and says what is wrong. An integer
 * beyond ±(2^53−1) cannot be carried exactly: InvalidParams, naming the argument.
 */
export function buildParamHeaders(declared: readonly ParamHeader[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of declared) {
    const value = valueAt(args, header.path);
    if (value === undefined || value === null) continue;
    let text: string;
    if (typeof value === "string") text = value;
    else if (typeof value === "boolean") text = value ? "true" : "false";
    else if (typeof value === "number" && Number.isFinite(value)) {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `argument ${JSON.stringify(header.path.join("."))} is ${value}, beyond ±(2^53−1): the header Mcp-Param-${header.headerName} cannot carry it exactly`,
        );
      }
      text = String(value);
    } else continue;
    headers[`Mcp-Param-${header.headerName}`] = encodeHeaderValue(text);
  }
  return headers;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
