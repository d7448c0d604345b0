import { redactUrl } from "../../system/redact-url.ts";
import { McpError } from "../mcp-error.ts";

/** Same-origin redirects followed in a row before giving up: a loop must not spin. */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a request of the transport sends: the body is text, so it can be sent again. */
export interface HttpRequestInit {
  method: string;
  headers: Headers;
  body?: string;
  signal?: AbortSignal;
}

/**
 * `fetch` that follows redirects only within the origin it started at. fetch's own following
 * would hand the entry's headers (an API key, `Authorization`), the session id and a call's
 * arguments to wherever a server points; a redirect to another origin (another host, port or
 * scheme) fails instead, naming both URLs, redacted. A same-origin redirect is repeated with the
 * same method, headers and body, except a 303 to a non-GET: the server says it handled the request
 * already, and repeating a POST could run a tool twice.
 */
export async function fetchWithinOrigin(url: string, init: HttpRequestInit, maxRedirects = MAX_REDIRECTS): Promise<Response> {
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    const response = await fetch(current, { ...init, redirect: "manual" });
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    // Not a redirect, or one without a target: the caller judges the status like any other.
    if (location === null) return response;
    await response.body?.cancel().catch(() => {});
    const from = redactUrl(current.href);
    const fail = (why: string) => new McpError(undefined, `the server at ${from} ${why}`, { status: response.status, url: redactUrl(url) });
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw fail(`redirected ${init.method} (${response.status}) to a location that is not a URL`);
    }
    const to = redactUrl(target.href);
    if (target.origin !== current.origin) {
      throw fail(
        `redirected ${init.method} (${response.status}) to another origin, ${to}; cat-code follows no redirect to another origin, so the entry's headers are not sent there. If the server moved, put the new address in the entry's "url"`,
      );
    }
    if (response.status === 303 && init.method !== "GET") {
      throw fail(`answered ${init.method} with 303 See Other (to ${to}); only 307 or 308 may redirect a ${init.method}, which is not sent twice`);
    }
    if (redirects >= maxRedirects) throw fail(`redirected more than ${maxRedirects} times in a row (last to ${to})`);
    current = target;
  }
}
