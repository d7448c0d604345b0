import { log } from "../../log.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { McpError } from "../mcp-error.ts";
import type { JsonRpcMessage } from "../protocol.ts";
import { AuthError } from "../auth/auth-error.ts";
import type { ServerAuthorizer } from "../auth/server-authorizer.ts";
import { MODERN_PROTOCOL_VERSION } from "../stateless-protocol.ts";
import { httpStatusError, unreachable } from "./http-errors.ts";
import { fetchWithinOrigin } from "./http-redirects.ts";
import { encodeHeaderValue } from "../header-value.ts";

const JSON_TYPE = "application/json";
const SSE_TYPE = "text/event-stream";

/**
 * Times one request is sent in a row for OAuth: a refresh, then a sign-in, then a sign-in for more
 * scope. The authorizer bounds its own retries; this only keeps a confused server from looping.
 */
const MAX_AUTH_ATTEMPTS = 4;

/** The media type of a response, lower case and without parameters (`charset=…`). */
export function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export function isEventStream(response: Response): boolean {
  return mediaType(response) === SSE_TYPE;
}

/** How many OAuth `Authorization` values a session remembers for masking: the latest ones. */
const MAX_REMEMBERED_AUTHORIZATIONS = 16;

/**
 * The HTTP side of one MCP endpoint: every fetch goes through here, so the configured headers, the
 * `Mcp-Session-Id` and the `MCP-Protocol-Version` are added in one place, a failed connection becomes
 * one error, and `terminate()` aborts everything still in flight. It never logs header values, and
 * shows the URL only redacted (`shownUrl`): userinfo and query values may hold secrets. Redirects
 * are followed only within the endpoint's origin (`fetchWithinOrigin`). With an authorizer, each
 * request carries its OAuth token, and a 401 or 403 goes to the authorizer first, which may renew the
 * token (the request is then sent again) or end the request with the reason (NEEDS-AUTH).
 */
export class HttpSession {
  /** Set from the answer to `initialize`; sent on every later request. */
  sessionId: string | undefined;
  /**
   * The version agreed in the handshake, sent on every request after it; or the modern version
   * (2026-07-28), which puts the session in modern mode: no session at all (an `Mcp-Session-Id`
   * the server sends is ignored, none is sent, nothing to `DELETE`), and `Mcp-Method`/`Mcp-Name`
   * on every POST.
   */
  protocolVersion: string | undefined;

  /** The endpoint as it may be shown: in messages, logs and `mcp list`. */
  readonly shownUrl: string;

  private readonly closer = new AbortController();
  /** Every `Authorization` an authorizer gave for a request, to mask in text the server sends back. */
  private readonly authorizationsSent = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly authorizer?: ServerAuthorizer,
  ) {
    this.shownUrl = redactUrl(url);
  }

  /** The configured header values and every OAuth `Authorization` sent so far (see Transport.credentials). */
  credentials(): string[] {
    return [...Object.values(this.headers), ...this.authorizationsSent];
  }

  /** The error for an answer that is not a success (see httpStatusError), naming the configured headers it carried. */
  statusError(response: Response): Promise<McpError> {
    return httpStatusError(this.shownUrl, response, Object.keys(this.headers));
  }

  /** Whether messages go the 2026-07-28 way (see `protocolVersion`). */
  get modern(): boolean {
    return this.protocolVersion === MODERN_PROTOCOL_VERSION;
  }

  /** Aborted by `terminate()`: every fetch and every wait of the transport listens to it. */
  get closeSignal(): AbortSignal {
    return this.closer.signal;
  }

  /**
   * POSTs one JSON-RPC message, with the message's own `headers` beside the protocol's. An
   * `initialize` carries no session and sets the new one from its answer.
   */
  async post(message: JsonRpcMessage, signal?: AbortSignal, headers?: Record<string, string>, onAuthorizing?: (waiting: boolean) => void): Promise<Response> {
    const initialize = "method" in message && message.method === "initialize";
    const protocolHeaders = this.modern ? modernHeaders(message) : {};
    const response = await this.fetch(
      "POST",
      { ...headers, ...protocolHeaders, "Content-Type": JSON_TYPE, Accept: `${JSON_TYPE}, ${SSE_TYPE}` },
      JSON.stringify(message),
      signal,
      !initialize,
      onAuthorizing,
    );
    if (initialize && response.ok) this.sessionId = response.headers.get("mcp-session-id") ?? undefined;
    return response;
  }

  /** Re-opens a dropped SSE stream where it stopped (`GET` + `Last-Event-ID`). */
  resume(lastEventId: string, signal?: AbortSignal): Promise<Response> {
    return this.listen(lastEventId, signal);
  }

  /** Opens the standalone `GET` stream, or re-opens one after `lastEventId` if an id was seen. */
  listen(lastEventId: string | undefined, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { Accept: SSE_TYPE };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    return this.fetch("GET", headers, undefined, signal, true);
  }

  /** Forgets an expired session (unless a new one already replaced it), so nothing is sent on it again. */
  forget(expired: string): void {
    if (this.sessionId === expired) this.sessionId = undefined;
  }

  /**
   * Aborts everything in flight, then ends the session on the server with `DELETE`, waiting at most
   * `timeoutMs`: a server that is gone must not hold up the exit. 405 means it keeps sessions itself.
   */
  async terminate(timeoutMs: number): Promise<void> {
    this.closer.abort(new Error("the connection was closed"));
    const sessionId = this.sessionId;
    this.sessionId = undefined;
    if (sessionId === undefined) return;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`DELETE timed out after ${timeoutMs} ms`)), timeoutMs);
    try {
      const authorization = await this.authorizer?.authorization();
      const response = await fetchWithinOrigin(this.url, {
        method: "DELETE",
        headers: this.headersFor({}, sessionId, true, authorization),
        signal: deadline.signal,
      });
      await response.body?.cancel();
      if (!response.ok && response.status !== 405 && response.status !== 404) {
        log.debug(`http: ${this.shownUrl}: DELETE of the session answered ${response.status}`);
      }
    } catch (error) {
      log.debug(`http: ${this.shownUrl}: DELETE of the session failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetch(
    method: string,
    ownHeaders: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    inSession: boolean,
    onAuthorizing?: (waiting: boolean) => void,
  ): Promise<Response> {
    const combined = signal ? AbortSignal.any([signal, this.closer.signal]) : this.closer.signal;
    combined.throwIfAborted();
    try {
      for (let attempt = 1; ; attempt++) {
        const authorization = await this.authorizing(onAuthorizing, async () => this.authorizer?.authorization());
        const response = await fetchWithinOrigin(this.url, {
          method,
          headers: this.headersFor(ownHeaders, inSession && !this.modern ? this.sessionId : undefined, inSession, authorization),
          body,
          signal: combined,
        });
        if (!this.authorizer || (response.status !== 401 && response.status !== 403) || attempt === MAX_AUTH_ATTEMPTS) return response;
        // The body is let go only when the request goes again: a refusal OAuth has no say in is
        // returned whole, and its body holds the server's reason (httpStatusError shows it).
        const again = await this.authorizing(onAuthorizing, () => this.renewAuthorization(response, authorization)).catch(async (error: unknown) => {
          await response.body?.cancel().catch(() => {});
          throw error;
        });
        if (!again) return response;
        await response.body?.cancel().catch(() => {});
        combined.throwIfAborted();
      }
    } catch (error) {
      if (combined.aborted) throw combined.reason;
      if (error instanceof McpError) throw error;
      throw unreachable(this.shownUrl, error);
    }
  }

  /** Runs an OAuth step, with `onAuthorizing` told while it waits (see SendOptions.onAuthorizing). */
  private async authorizing<T>(onAuthorizing: ((waiting: boolean) => void) | undefined, step: () => Promise<T>): Promise<T> {
    if (!this.authorizer || !onAuthorizing) return step();
    onAuthorizing(true);
    try {
      return await step();
    } finally {
      onAuthorizing(false);
    }
  }

  /** Asks the authorizer about a 401 or 403: true to send the request again; its failure as an McpError. */
  private async renewAuthorization(response: Response, sent: string | undefined): Promise<boolean> {
    try {
      return await this.authorizer!.refused(response.status, response.headers, sent);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      // The status stays, so no one mistakes a refused sign-in for a server that cannot be reached.
      throw new McpError(undefined, error.message, { url: this.shownUrl, status: response.status, kind: error.needsSignIn ? "needs-auth" : undefined, cause: error });
    }
  }

  /** The configured headers first, so they cannot break the protocol headers set on top of them. */
  private headersFor(ownHeaders: Record<string, string>, sessionId: string | undefined, withVersion = true, authorization?: string): Headers {
    const headers = new Headers(this.headers);
    for (const [name, value] of Object.entries(ownHeaders)) headers.set(name, value);
    if (authorization !== undefined) {
      headers.set("Authorization", authorization);
      // Bounded: a long session refreshes its token now and then, never thousands of times.
      if (this.authorizationsSent.size >= MAX_REMEMBERED_AUTHORIZATIONS) this.authorizationsSent.delete(this.authorizationsSent.values().next().value!);
      this.authorizationsSent.add(authorization);
    }
    if (sessionId !== undefined) headers.set("Mcp-Session-Id", sessionId);
    if (withVersion && this.protocolVersion !== undefined) headers.set("MCP-Protocol-Version", this.protocolVersion);
    return headers;
  }
}

/** The methods whose target is named in `Mcp-Name`, and the param that names it. */
const NAMED_BY: Record<string, "name" | "uri"> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/**
 * The headers a 2026-07-28 POST carries beside `MCP-Protocol-Version`: `Mcp-Method` (the method)
 * and, on a tool call, a prompt or a resource read, `Mcp-Name` (the name or URI), so a server or a
 * gateway can route without reading the body. Values that are not plain header text go in the
 * revision's base64 form. A reply of ours (no method) carries neither.
 */
function modernHeaders(message: JsonRpcMessage): Record<string, string> {
  if (!("method" in message)) return {};
  const headers: Record<string, string> = { "Mcp-Method": encodeHeaderValue(message.method) };
  const field = NAMED_BY[message.method];
  const params = "params" in message ? message.params : undefined;
  const name = field && typeof params === "object" && params !== null ? (params as Record<string, unknown>)[field] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}
