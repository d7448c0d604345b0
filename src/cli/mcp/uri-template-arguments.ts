import { parseTemplate } from "url-template";
import { CliError } from "../../terminal/cli-error.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { parseStringPairs } from "./string-pairs.ts";

/** A resource URI with an RFC 6570 expression in it is a template, filled in from `key=value`. */
export function isUriTemplate(uri: string): boolean {
  return uri.includes("{");
}

export interface TemplateVariable {
  name: string;
  /**
   * A form-style query variable (`{?lang}`, `{&page}`): left out, its part of the query is left out,
   * which is what such a template means. Every other one names the resource and must be given.
   */
  optional: boolean;
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const VARIABLE_NAME = /^(?:[A-Za-z0-9_.]|%[0-9A-Fa-f]{2})+$/;

/** The variables of a template, in order and once each; a usage error when it is no RFC 6570 template. */
export function templateVariables(template: string): TemplateVariable[] {
  const variables = new Map<string, TemplateVariable>();
  const invalid = (why: string) => CliError.usage(`'${template}' is not a valid URI template: ${why}`);
  let at = 0;
  for (;;) {
    const open = template.indexOf("{", at);
    const stray = template.indexOf("}", at);
    if (stray !== -1 && (open === -1 || stray < open)) throw invalid("a '}' without its '{'");
    if (open === -1) break;
    const close = template.indexOf("}", open);
    if (close === -1) throw invalid("a '{' without its '}'");
    let expression = template.slice(open + 1, close);
    const operator = OPERATORS.has(expression[0] ?? "") ? expression[0] : "";
    if (operator) expression = expression.slice(1);
    for (const spec of expression.split(",")) {
      const name = spec.replace(/(\*|:\d{1,4})$/, "");
      if (!VARIABLE_NAME.test(name)) throw invalid(`'{${template.slice(open + 1, close)}}' has no usable variable name`);
      if (!variables.has(name)) variables.set(name, { name, optional: operator === "?" || operator === "&" });
    }
    at = close + 1;
  }
  return [...variables.values()];
}

/**
 * The URI a template names with these `key=value` pairs, expanded as RFC 6570 says (the `url-template`
 * package): values are percent-encoded as their expression asks. A key the template does not have,
 * a key given twice, or a required variable left out is a usage error naming the template's variables.
 */
export function expandUriTemplate(template: string, pairs: string[]): string {
  const variables = templateVariables(template);
  const names = variables.map((v) => v.name);
  const listed = variables.map((v) => (v.optional ? v.name : `${v.name}*`)).join(", ");
  const values = parseStringPairs(pairs, "variable");
  for (const key of Object.keys(values)) {
    if (!names.includes(key)) throw CliError.usage(`${unknownNameMessage("variable", key, names)} (template ${template})`);
  }
  const missing = variables.filter((v) => !v.optional && !Object.hasOwn(values, v.name)).map((v) => v.name);
  if (missing.length > 0) {
    const add = missing.map((name) => `${name}=...`).join(" ");
    throw CliError.usage(`missing template variable${missing.length > 1 ? "s" : ""} ${missing.map((n) => `'${n}'`).join(", ")}: add ${add} (template ${template}; variables: ${listed}, * = required)`);
  }
  return parseTemplate(template).expand(values);
}
