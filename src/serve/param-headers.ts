import { buildParamHeaders, checkParamHeaders, decodeHeaderValue, type ParamHeaderCheck } from "../mcp/index.ts";
import { isPlainObject } from "../system/plain-object.ts";

/** Each schema's markings, worked out once: a served tool's definition stays the same object until it is listed anew. */
const markings = new WeakMap<object, ParamHeaderCheck>();

/**
 * Why a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, as the served
 * tool's `x-mcp-header` markings say (SEP-2243); undefined when they agree. Each marked argument
 * in the body must come with its header, whose value (decoded when it is `=?base64?…?=`, which must
 * then be canonical base64) equals the argument as a client writes it (buildParamHeaders, the one
 * cat-code's own client sends); a header with no argument behind it did not come from this body.
 * A tool whose markings break the rules is one a client leaves out: nothing to check.
 */
export function paramHeaderMismatch(headers: Headers, inputSchema: unknown, args: unknown): string | undefined {
  if (!isPlainObject(inputSchema)) return undefined;
  let marked = markings.get(inputSchema);
  if (!marked) markings.set(inputSchema, (marked = checkParamHeaders(inputSchema)));
  if (!marked.ok || marked.headers.length === 0) return undefined;
  let expected: Record<string, string>;
  try {
    expected = buildParamHeaders(marked.headers, args);
  } catch {
    // An integer beyond ±(2^53−1): no header carries it exactly, so no client's could agree; left unchecked.
    return undefined;
  }
  for (const { headerName, path } of marked.headers) {
    const name = `Mcp-Param-${headerName}`;
    const argument = JSON.stringify(path.join("."));
    const sent = headers.get(name);
    const wanted = expected[name];
    if (wanted === undefined) {
      if (sent !== null) return `the ${name} header names argument ${argument}, which the body does not have`;
      continue;
    }
    if (sent === null) return `the ${name} header is missing; the body has argument ${argument}`;
    const value = decodeHeaderValue(sent);
    if (value === undefined) return `the ${name} header is not valid: a =?base64?…?= value needs canonical base64 of UTF-8`;
    if (value !== decodeHeaderValue(wanted)) return `the ${name} header must equal argument ${argument} in the body`;
  }
  return undefined;
}
