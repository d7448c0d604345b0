import { cutText } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";

/** An `error` code is a short ASCII token (RFC 6749 §5.2); a longer one is cut. */
const MAX_ERROR_CHARS = 64;
/** Enough for any real `error_description`; the rest of a long one is noise in a terminal. */
const MAX_DESCRIPTION_CHARS = 300;
/**
 * Controls, bidi controls, zero-width and line separators: what could rewrite a terminal or hide
 * text. The terminal's sanitizer lives above this layer, so the words an authorization server
 * chose are cleaned here, where they enter, before they go into an AuthError.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** The OAuth error of an answer (RFC 6749 §5.2, RFC 7591 §3.2.2, the redirect of §4.1.2.1), cleaned and cut. */
export interface OAuthErrorAnswer {
  error: string;
  description?: string;
}

/** Text from an authorization server made fit for a one-line message: controls become spaces, cut to `max`. */
export function serverWords(text: string, max = MAX_DESCRIPTION_CHARS): string {
  return cutText(text.replace(UNSAFE, " ").replace(/ {2,}/g, " ").trim(), max);
}

/** `error` and `error_description` of a parsed JSON body or a redirect's query; undefined when there is no `error`. */
export function oauthErrorOf(source: unknown): OAuthErrorAnswer | undefined {
  const get = (name: string): unknown =>
    source instanceof URLSearchParams ? (source.get(name) ?? undefined) : isPlainObject(source) ? source[name] : undefined;
  const error = get("error");
  if (typeof error !== "string" || error.trim() === "") return undefined;
  const description = get("error_description");
  const cleaned = typeof description === "string" ? serverWords(description) : "";
  return { error: serverWords(error, MAX_ERROR_CHARS), ...(cleaned ? { description: cleaned } : {}) };
}

/** `invalid_grant (The refresh token has expired)`: the code, and the server's words when it gave some. */
export function describeOAuthError(answer: OAuthErrorAnswer): string {
  return answer.description ? `${answer.error} (${answer.description})` : answer.error;
}
