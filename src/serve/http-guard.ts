import { carriesToken } from "./serve-token.ts";

/** The hosts that are this machine: `mcp serve --http` listens on one of them unless `--host` says otherwise. */
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1"];

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host.replace(/^\[|\]$/g, ""));
}

/** Every address of the machine: a client may reach it by any of its names. */
const WILDCARD_HOSTS = ["0.0.0.0", "::", "[::]"];

/**
 * The `host:port` forms a request to this endpoint may name, in its Host header and (with a scheme)
 * its Origin; undefined when listening on every address (`--host 0.0.0.0`), where any name of the
 * machine may be used: then a request's Origin must name the same host as its Host header.
 */
export function allowedAuthorities(host: string, port: number): Set<string> | undefined {
  if (WILDCARD_HOSTS.includes(host)) return undefined;
  const hosts = isLoopback(host) ? LOOPBACK_HOSTS : [host, ...LOOPBACK_HOSTS];
  return new Set(hosts.map((name) => `${name.includes(":") ? `[${name}]` : name}:${port}`));
}

/**
 * Why a request may not reach the servers, as the response to send; undefined when it may. In
 * order: a Host that is not this endpoint (a DNS-rebinding page: its name resolves here, but the
 * browser still sends it), an Origin of another site (a web page the user visits posting to
 * localhost), and no bearer token (any other local program). Nothing of the request is echoed.
 */
export function refusal(request: Request, authorities: Set<string> | undefined, token: string): Response | undefined {
  const host = request.headers.get("host")?.toLowerCase() ?? null;
  if (host !== null && authorities && !authorities.has(host)) return plain(403, "forbidden: the Host header does not name this server");
  const origin = request.headers.get("origin");
  const allowed = authorities ?? new Set(host === null ? [] : [host]);
  if (origin !== null && !originAllowed(origin, allowed)) return plain(403, "forbidden: requests from web pages of other origins are refused");
  if (!carriesToken(request.headers.get("authorization"), token)) {
    return new Response("unauthorized: send the token of `cat-code mcp serve --http` as `Authorization: Bearer <token>`\n", {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="cat-code mcp serve"', "Content-Type": "text/plain" },
    });
  }
  return undefined;
}

function originAllowed(origin: string, authorities: Set<string>): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && authorities.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}

export function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain", ...headers } });
}
