import type { Server } from "bun";
import { systemClock, type Clock } from "../../system/clock.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { AuthError, signInCancelled } from "./auth-error.ts";
import { describeOAuthError, oauthErrorOf, serverWords } from "./oauth-error-answer.ts";

/** Long enough to find the browser tab and sign in, with a second factor; a login must not wait forever. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5 * 60_000;
const CALLBACK_PATH = "/callback";
/** Authorization codes are short opaque strings; anything longer is not one. */
const MAX_CODE_CHARS = 8192;

export interface AuthorizationResponse {
  code: string;
}
export interface CallbackListener {
  /** http://127.0.0.1:<port>/callback */
  readonly redirectUri: string;
  readonly port: number;
  /** Settles with the code once a valid redirect arrives; rejects with AuthError on error=…, a bad state, a bad iss, timeout or abort. */
  readonly response: Promise<AuthorizationResponse>;
  /** Idempotent; always called by the owner. */
  close(): void;
}

/** Listens on 127.0.0.1 (port 0 = any; a taken fixed port is an AuthError naming it and the `oauth.callbackPort` setting). Answers the browser with a short HTML page ("signed in, return to the terminal" or what went wrong; nothing from the query echoed unescaped). Requests for other paths get 404 and are ignored. `state` must match exactly. RFC 9207: when `issParameterSupported`, `iss` must be present and equal `issuer`; when not advertised but present, it must still equal `issuer` (conformance auth/iss-*: read those scenarios for the exact rules, including auth/iss-normalized). Default timeout 5 minutes via `clock`. */
export async function listenForCallback(options: {
  port?: number;
  state: string;
  issuer: string;
  issParameterSupported: boolean;
  timeoutMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
}): Promise<CallbackListener> {
  if (options.signal?.aborted) throw signInCancelled();
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  let settled = false;
  let resolve!: (response: AuthorizationResponse) => void;
  let reject!: (error: AuthError) => void;
  const response = new Promise<AuthorizationResponse>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // The owner may not be awaiting yet when a timeout or an abort comes; that is not an unhandled rejection.
  response.catch(() => {});

  const timer = clock.setTimeout(() => finish(new AuthError(`no sign-in arrived within ${formatDuration(timeoutMs)}: run the login again and finish it in the browser`)), timeoutMs);
  const onAbort = (): void => finish(signInCancelled());
  options.signal?.addEventListener("abort", onAbort, { once: true });

  function finish(outcome: AuthorizationResponse | AuthError): void {
    if (settled) return;
    settled = true;
    clock.clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (outcome instanceof AuthError) reject(outcome);
    else resolve(outcome);
  }

  function handle(request: Request): Response {
    const url = new URL(request.url);
    if (url.pathname !== CALLBACK_PATH) return page(404, "Not found", "This address only receives cat-code's sign-in.");
    if (request.method !== "GET") return page(405, "Not allowed", "This address only receives cat-code's sign-in.");
    if (settled) return page(409, "Sign-in already finished", "This sign-in has already ended. Return to the terminal.");
    const outcome = judge(url.searchParams, options);
    finish(outcome);
    if (outcome instanceof AuthError) return page(400, "Sign-in failed", `${outcome.message}. Return to the terminal.`);
    return page(200, "Signed in", "cat-code is signed in. You can close this tab and return to the terminal.");
  }

  let server: Server<undefined>;
  const port = options.port ?? 0;
  try {
    server = Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 30, fetch: handle });
  } catch (error) {
    clock.clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE" || /in use/i.test((error as Error).message)) {
      throw new AuthError(`port ${port} on 127.0.0.1 is taken, so the sign-in cannot receive its redirect there: free it, or set "oauth.callbackPort" in the server's entry to another port (or remove it to use any free port)`);
    }
    throw new AuthError(`cannot listen on 127.0.0.1:${port} for the sign-in's redirect: ${(error as Error).message}`);
  }
  const actualPort = server.port as number;
  let closed = false;
  return {
    redirectUri: `http://127.0.0.1:${actualPort}${CALLBACK_PATH}`,
    port: actualPort,
    response,
    close() {
      if (closed) return;
      closed = true;
      finish(signInCancelled());
      // Not forced: the page that answers the redirect may still be on its way to the browser.
      void server.stop();
    },
  };
}

/**
 * What a redirect to the callback means. Checked in the order that keeps a forged redirect from
 * doing anything: `state` first (RFC 6749 §10.12), then `iss` (RFC 9207 §2.4, before the response
 * is processed further, error responses included), then an `error`, then the code.
 */
function judge(query: URLSearchParams, options: { state: string; issuer: string; issParameterSupported: boolean }): AuthorizationResponse | AuthError {
  for (const name of ["state", "code", "iss", "error"]) {
    if (query.getAll(name).length > 1) return new AuthError(`the sign-in's redirect repeats "${name}", which RFC 6749 forbids: refused`);
  }
  if (query.get("state") !== options.state) {
    return new AuthError("the sign-in's redirect does not carry this sign-in's state (a forged or stale redirect): refused; run the login again");
  }
  const iss = query.get("iss");
  const issuer = shownIssuer(options.issuer);
  if (iss === null && options.issParameterSupported) {
    return new AuthError(`the authorization server ${issuer} promises an "iss" in its redirect (RFC 9207) but this one has none: refused, as it may come from another server`);
  }
  // A plain string comparison: RFC 9207 §2.4 allows no normalization (a trailing "/" is another issuer).
  if (iss !== null && iss !== options.issuer) {
    return new AuthError(`the sign-in's redirect says it comes from ${shownIssuer(iss)}, not from ${issuer} where cat-code signed in (compared exactly): refused, as a mix-up attack would look like this`);
  }
  const refusal = oauthErrorOf(query);
  if (refusal) return new AuthError(`the authorization server ${issuer} did not sign you in: ${describeOAuthError(refusal)}`, { oauthError: refusal.error });
  const code = query.get("code");
  if (!code || code.length > MAX_CODE_CHARS) return new AuthError(`the sign-in's redirect from ${issuer} carries no usable authorization code: run the login again`);
  return { code };
}

/**
 * An issuer as it was written: the comparison is exact, so the message must show the difference (a
 * trailing "/", a capital) that `redactUrl`'s normalized form would hide. An issuer has no query,
 * userinfo or fragment (RFC 8414 §2); one that has them is redacted all the same.
 */
function shownIssuer(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const secretive = url !== undefined && `${url.username}${url.password}${url.search}${url.hash}` !== "";
  return serverWords(secretive ? redactUrl(text) : text, 200);
}

/** The page the browser shows: fixed words and an escaped message; no script, no links, nothing cached. */
function page(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>cat-code: ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      Connection: "close",
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function formatDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}` : `${Math.round(ms / 1000)} s`;
}
