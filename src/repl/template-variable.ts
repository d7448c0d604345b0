/** The variable of a URI template that a half-typed URI ends in. */
export interface VariableAt {
  /** The variable's name, as `completion/complete` is asked about it. */
  name: string;
  /** What has been typed of its value. */
  value: string;
  /** The URI up to where the value starts. */
  before: string;
  /** The values of the variables before it, for the request's context. */
  earlier: Record<string, string>;
}

/** `{name}`, `{+path}`, `{id*}`, `{a,b}` (the first name counts): RFC 6570 expressions. */
const EXPRESSION = /\{([^}]*)\}/;

/**
 * Where `uri` (being typed) stands in `uriTemplate`: inside a variable, after the template's fixed
 * text before it, or nowhere (it left the template, or it ends in fixed text). Each variable's
 * value runs to the fixed text after it, so `demo://x/{a}/{b}` and `demo://x/1/2` put `2` in `b`.
 */
export function templateVariableAt(uriTemplate: string, uri: string): VariableAt | undefined {
  const parts = uriTemplate.split(EXPRESSION);
  const earlier: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const fixed = parts[i] as string;
    if (!uri.startsWith(fixed, at)) return undefined;
    at += fixed.length;
    const expression = parts[i + 1];
    if (expression === undefined) return undefined;
    const name = variableName(expression);
    const next = parts[i + 2] ?? "";
    const end = next === "" ? -1 : uri.indexOf(next, at);
    if (end === -1) return name && at > 0 ? { name, value: uri.slice(at), before: uri.slice(0, at), earlier } : undefined;
    if (name) earlier[name] = uri.slice(at, end);
    at = end;
  }
  return undefined;
}

function variableName(expression: string): string {
  const first = expression.replace(/^[+#./;?&]/, "").split(",")[0] ?? "";
  return first.replace(/(\*|:\d+)$/, "").trim();
}
