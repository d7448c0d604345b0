import * as v from "valibot";
import { log } from "../../log.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";
import type { AuthRequestOptions } from "./auth-fetch.ts";
import { firstMetadataDocument, firstProblem, type FoundDocument } from "./metadata-document.ts";
import { checkOAuthUrl } from "./oauth-url.ts";
import { ScopesSupported } from "./scope-selection.ts";
import type { BearerChallenge } from "./www-authenticate.ts";

/**
 * Which authorization servers guard an MCP server: OAuth 2.0 Protected Resource Metadata (RFC 9728
 * §3, §3.3, §7.6) as MCP authorization 2025-11-25 uses it ("Protected Resource Metadata Discovery
 * Requirements": the challenge's `resource_metadata` first, then the path-aware well-known URI, then
 * the root one; "Canonical Server URI" and RFC 8707 for the `resource` the tokens are bound to).
 */

export interface ProtectedResourceMetadata {
  /** Exactly as published (never normalized: the `resource` parameter echoes it). */
  resource: string;
  /** At least one, each an absolute https: URL (http: on a loopback host), as published. */
  authorizationServers: string[];
  scopesSupported?: string[];
  /** Where it was found. */
  url: string;
}

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

const PrmDocument = v.object({
  resource: v.pipe(v.string('"resource" must be a string'), v.nonEmpty('"resource" is empty')),
  authorization_servers: v.pipe(
    v.array(v.string('every item of "authorization_servers" must be a string'), '"authorization_servers" must be a list of URLs'),
    v.minLength(1, '"authorization_servers" is empty'),
  ),
  scopes_supported: ScopesSupported,
});

/**
 * Order: the challenge's resource_metadata URL; else `<origin>/.well-known/oauth-protected-resource<path>`;
 * else `<origin>/.well-known/oauth-protected-resource`. Undefined when none is found (404/410 or not
 * JSON on all), which means the 2025-03-26 fallback. Throws AuthError when a document is found but is
 * invalid or its `resource` does not match `serverUrl`.
 */
export async function discoverProtectedResource(
  serverUrl: string,
  challenge: BearerChallenge | undefined,
  options: AuthRequestOptions = {},
): Promise<ProtectedResourceMetadata | undefined> {
  const found = await firstMetadataDocument(metadataUrls(serverUrl, challenge), "protected resource metadata", options);
  return found && readMetadata(found, serverUrl);
}

/**
 * Whether a PRM `resource` covers `serverUrl`: same origin (scheme, host, port), and its path a
 * path-prefix of the server's path at a segment boundary (`/mcp` covers `/mcp` and `/mcp/x`, not
 * `/mcpx`); a trailing slash on either side does not matter, a pathless resource covers the whole
 * origin. The query plays no part. A resource with a fragment is no resource identifier (RFC 8707 §2).
 */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let published: URL;
  let server: URL;
  try {
    published = new URL(resource);
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  if (published.hash || published.origin === "null" || published.origin !== server.origin) return false;
  const prefix = published.pathname.replace(/\/+$/, "");
  const path = server.pathname.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

function metadataUrls(serverUrl: string, challenge: BearerChallenge | undefined): string[] {
  let server: URL;
  try {
    server = new URL(serverUrl);
  } catch {
    throw new AuthError(`the server URL ${redactUrl(serverUrl)} is not an absolute URL`);
  }
  const urls: string[] = [];
  if (challenge?.resourceMetadata !== undefined) urls.push(challengeUrl(challenge.resourceMetadata, server));
  // RFC 9728 §3.1: the well-known part goes between the host and the path (a final slash dropped); the query stays.
  const path = server.pathname.replace(/\/+$/, "");
  if (path !== "") urls.push(`${server.origin}${WELL_KNOWN}${path}${server.search}`);
  urls.push(`${server.origin}${WELL_KNOWN}`);
  return [...new Set(urls)];
}

/**
 * The challenge's `resource_metadata`. It may live on another origin (RFC 9728 §5.1), and then it
 * must be a URL an OAuth step may use: a plain-http URL elsewhere would let anyone on the path name
 * the authorization server the user signs in to. On the server's own origin it is as safe as the server.
 */
function challengeUrl(text: string, server: URL): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url && url.origin === server.origin && !url.username && !url.password) return text;
  const checked = checkOAuthUrl(text);
  if ("problem" in checked) {
    throw new AuthError(
      `the server ${redactUrl(server.href)} points to its protected resource metadata at ${redactUrl(text)}, which ${checked.problem}; cat-code does not fetch it (tell the server's operator)`,
    );
  }
  return text;
}

function readMetadata(found: FoundDocument, serverUrl: string): ProtectedResourceMetadata {
  const shown = redactUrl(found.url);
  const parsed = v.safeParse(PrmDocument, found.json);
  if (!parsed.success) {
    throw new AuthError(`the protected resource metadata at ${shown} is invalid: ${firstProblem(parsed.issues)}; the server publishes broken metadata (tell its operator)`);
  }
  const { resource, authorization_servers: servers, scopes_supported: scopesSupported } = parsed.output;
  if (!resourceCovers(resource, serverUrl)) {
    throw new AuthError(
      `the protected resource metadata at ${shown} is for ${redactUrl(resource)}, not for ${redactUrl(serverUrl)}: cat-code refuses to send a token to a server the metadata is not for (check the server URL, or tell its operator)`,
    );
  }
  const authorizationServers: string[] = [];
  const problems: string[] = [];
  for (const server of servers) {
    const checked = checkOAuthUrl(server);
    if ("url" in checked) authorizationServers.push(server);
    else problems.push(`${redactUrl(server)} ${checked.problem}`);
  }
  if (authorizationServers.length === 0) {
    throw new AuthError(`the protected resource metadata at ${shown} names no usable authorization server: ${problems[0]}`);
  }
  for (const problem of problems) log.debug(`skipped an authorization server of ${shown}: ${problem}`);
  return { resource, authorizationServers, ...(scopesSupported ? { scopesSupported } : {}), url: found.url };
}
