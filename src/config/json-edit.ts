import type { Node, ParseError } from "jsonc-parser";
import { jsonc } from "./jsonc.ts";
import { ConfigError } from "./config-error.ts";
import { describeParseError, lineAndColumn } from "./json-parse-error.ts";

/** The text is not JSON, or its shape does not allow the edit: the caller adds the file's name. */
function corrupt(message: string): ConfigError {
  return new ConfigError(message, "corrupt-file");
}

/**
 * Sets `path` to `value` in a JSON text and changes nothing else: every byte outside the edited
 * property stays as it was. Missing objects along the path are created; empty text becomes a new
 * document. The new property is indented like its neighbours.
 *
 * jsonc-parser's `modify` with formatting options reformats the sibling properties too, and without
 * them writes the value on one line; so the insertion is placed and indented here.
 */
export function setProperty(text: string, path: string[], value: unknown, options: ParseOptions = {}): string {
  const style = detectStyle(text);
  if (text.trim() === "") return `${stringify(nested(path, value), "", style)}${style.eol}`;
  let node = parseObjectTree(text, options);
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const property = node.children?.find((child) => child.children?.[0]?.value === key);
    const valueNode = property?.children?.[1];
    if (!property || !valueNode) return insertProperty(text, node, key, nested(path.slice(i + 1), value), style);
    if (i === path.length - 1) {
      const indent = lineIndent(text, property.offset);
      return splice(text, valueNode.offset, valueNode.length, stringify(value, indent, style));
    }
    if (valueNode.type !== "object") throw corrupt(`"${path.slice(0, i + 1).join(".")}" is not an object`);
    node = valueNode;
  }
  throw corrupt("an empty path cannot be set");
}

/**
 * Removes the property at `path` with the comma and the line break that went with it; nothing else
 * changes. (`modify` from jsonc-parser also takes the indentation of the next property.)
 */
export function removeProperty(text: string, path: string[], options: ParseOptions = {}): string {
  const root = parseObjectTree(text, options);
  const valueNode = jsonc().findNodeAtLocation(root, path);
  const property = valueNode?.parent;
  const object = property?.parent;
  if (!property || !object) return text;
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const next = siblings[index + 1];
  const previous = siblings[index - 1];
  // Before a sibling: up to where the sibling starts, so the whitespace before this one serves it.
  if (next) return splice(text, property.offset, next.offset - property.offset, "");
  // The last of several: from the end of the one before, which takes the comma.
  if (previous) return splice(text, previous.offset + previous.length, property.offset + property.length - previous.offset - previous.length, "");
  return splice(text, object.offset + 1, object.length - 2, "");
}

/** The value at `path`, or undefined. Throws a "corrupt-file" ConfigError for text that is not a JSON object. */
export function readProperty(text: string, path: string[], options: ParseOptions = {}): unknown {
  if (text.trim() === "") return undefined;
  const node = jsonc().findNodeAtLocation(parseObjectTree(text, options), path);
  return node ? jsonc().getNodeValue(node) : undefined;
}

/** The names of the properties of the object at `path` (empty when absent). */
export function propertyNames(text: string, path: string[]): string[] {
  if (text.trim() === "") return [];
  const node = path.length === 0 ? parseObjectTree(text) : jsonc().findNodeAtLocation(parseObjectTree(text), path);
  if (!node || node.type !== "object") return [];
  return (node.children ?? []).map((child) => String(child.children?.[0]?.value));
}

/** `jsonc`: comments and trailing commas allowed (settings.json); mcp.json stays strict JSON. */
export interface ParseOptions {
  jsonc?: boolean;
}

function parseObjectTree(text: string, { jsonc: allowComments = false }: ParseOptions = {}): Node {
  const errors: ParseError[] = [];
  const root = jsonc().parseTree(text, errors, { disallowComments: !allowComments, allowTrailingComma: allowComments });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw corrupt(`not valid JSON: ${describeParseError(jsonc().printParseErrorCode(first.error))} at line ${line}, column ${column}`);
  }
  if (!root || root.type !== "object") throw corrupt("the top level must be an object");
  return root;
}

function insertProperty(text: string, object: Node, key: string, value: unknown, style: Style): string {
  const children = object.children ?? [];
  const last = children.at(-1);
  if (last) {
    // An object written on one line gets the new property on that line too.
    if (!text.slice(object.offset, last.offset).includes("\n")) {
      return splice(text, last.offset + last.length, 0, `, ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    }
    const indent = lineIndent(text, last.offset);
    const entry = `${JSON.stringify(key)}: ${stringify(value, indent, style)}`;
    // A trailing comma (allowed in settings.json) stays the last thing, after the new property.
    const trailing = /^[ \t]*,/.exec(text.slice(last.offset + last.length));
    if (trailing) return splice(text, last.offset + last.length + trailing[0].length, 0, `${style.eol}${indent}${entry},`);
    return splice(text, last.offset + last.length, 0, `,${style.eol}${indent}${entry}`);
  }
  const outer = lineIndent(text, object.offset);
  const inner = outer + style.unit;
  const body = `${style.eol}${inner}${JSON.stringify(key)}: ${stringify(value, inner, style)}${style.eol}${outer}`;
  return splice(text, object.offset + 1, object.length - 2, body);
}

interface Style {
  unit: string;
  eol: string;
}

/** The file's own indentation unit and line ending; two spaces and \n for a new file. */
function detectStyle(text: string): Style {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indented = /^([ \t]+)\S/m.exec(text);
  return { eol, unit: indented?.[1] ?? "  " };
}

function stringify(value: unknown, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.unit).split("\n").join(`${style.eol}${indent}`);
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

function nested(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function splice(text: string, offset: number, length: number, insert: string): string {
  return text.slice(0, offset) + insert + text.slice(offset + length);
}
