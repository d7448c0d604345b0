import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";

/** Metadata documents and token answers are a few kilobytes; a larger body is not one of them. */
export const MAX_AUTH_BODY_BYTES = 256 * 1024;
/** One metadata or token request; an authorization server that does not answer must not hang a command. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The fetch every step of the flow uses. Tests and the transport hand in `fetch` itself; it exists
 * as a type so a step can be driven against a server without a global.
 */
export type AuthFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface AuthRequestOptions {
  fetch?: AuthFetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A response read whole (at most MAX_AUTH_BODY_BYTES) and, when it is JSON, parsed. */
export interface AuthAnswer {
  status: number;
  headers: Headers;
  /** The parsed body when it was JSON (any value), else undefined. */
  json: unknown;
  /** The start of the body as text, for error messages (never shown unsanitized). */
  text: string;
}

/**
 * One request of the OAuth flow, answered whole. Redirects are not followed: a metadata document or
 * a token endpoint that redirects elsewhere would take the client's credentials along, so a 3xx is
 * returned like any status for the caller to judge. A failure to connect, a timeout and a body over
 * the limit become an AuthError that names the URL (redacted) and what happened.
 */
export async function authRequest(url: string, init: RequestInit, options: AuthRequestOptions = {}): Promise<AuthAnswer> {
  const shown = redactUrl(url);
  const timeoutMs = options.timeoutMs ?? AUTH_REQUEST_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { ...init, redirect: "manual", signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) throw new AuthError(`${shown} did not answer within ${timeoutMs / 1000} s`);
    throw new AuthError(`cannot reach ${shown}: ${(error as Error).message.replaceAll(url, shown)}`);
  }
  const bytes = await readBounded(response, shown);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text: text.slice(0, 2000) };
}

async function readBounded(response: Response, shown: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_AUTH_BODY_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new AuthError(`${shown} answered with ${declared} bytes, more than the ${MAX_AUTH_BODY_BYTES / 1024} KB an OAuth answer may have`);
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_AUTH_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new AuthError(`${shown} answered with more than the ${MAX_AUTH_BODY_BYTES / 1024} KB an OAuth answer may have`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
