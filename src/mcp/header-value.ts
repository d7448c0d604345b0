/**
 * The value encoding the 2026-07-28 revision uses for HTTP headers that mirror the body: `Mcp-Name`
 * (a tool or prompt name, a resource URI) and `Mcp-Param-*` (tool arguments). A value that is a
 * safe plain header value goes as it is; anything else as `=?base64?<base64 of its UTF-8>?=`.
 * Here, below the transports and the client, because both build such headers.
 */

const PREFIX = "=?base64?";
const SUFFIX = "?=";
/** RFC 4648 base64 with its padding: the only form a server must accept. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The header value for `value`. Plain when every character is visible ASCII or a space, the value
 * does not start or end with a space, and it does not look like the sentinel; base64 otherwise.
 * Two choices go beyond the spec's letter, both safe since a server must decode any sentinel value:
 * an empty value is encoded (some HTTP stacks drop an empty header, and a missing one reads as a
 * mismatch), and so is a tab anywhere (RFC 9110 allows an inner tab, but stacks and the conformance
 * suite's referee disagree about it).
 */
export function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `${PREFIX}${Buffer.from(value, "utf8").toString("base64")}${SUFFIX}`;
}

/**
 * The value a header carries: a sentinel value decoded, any other as it is; undefined when the
 * sentinel holds no canonical base64 or no valid UTF-8 (a server must reject such a header).
 */
export function decodeHeaderValue(header: string): string | undefined {
  if (!looksLikeSentinel(header)) return header;
  // "=?base64?=" has the prefix and the suffix overlapping: no encoder writes it, so it is malformed.
  if (header.length < PREFIX.length + SUFFIX.length) return undefined;
  const encoded = header.slice(PREFIX.length, header.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64"));
  } catch {
    return undefined;
  }
}

function isPlainHeaderValue(value: string): boolean {
  if (value === "" || value.startsWith(" ") || value.endsWith(" ") || looksLikeSentinel(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function looksLikeSentinel(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX);
}
