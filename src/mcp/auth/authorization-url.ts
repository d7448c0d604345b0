import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";
import type { AuthorizationServerMetadata } from "./authorization-server-metadata.ts";
import { OFFLINE_ACCESS } from "./scope-selection.ts";

/**
 * The URL the browser opens to sign in: an authorization code request (OAuth 2.1) with PKCE S256,
 * `state`, and the `resource` indicator of RFC 8707 exactly as the protected resource metadata
 * published it (the authorization and token requests must carry the same string). The endpoint's
 * own query is kept (RFC 6749 §3.1); no `scope` is sent when none was chosen. An endpoint that is
 * not http(s) is refused: the URL is handed to the system's opener, which would run anything else.
 *
 * An OpenID provider issues a refresh token for `offline_access` only when the request asks for
 * consent (OpenID Connect Core §11; oidc-provider drops the scope otherwise), so a request for it
 * there carries `prompt=consent`: without it the user would sign in again whenever the access
 * token expires.
 */
export function authorizationUrl(input: {
  metadata: AuthorizationServerMetadata;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  resource: string;
  scopes?: readonly string[];
}): string {
  const endpoint = input.metadata.authorizationEndpoint;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AuthError(`the authorization endpoint of ${redactUrl(input.metadata.issuer)} is not a URL: cannot sign in there`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AuthError(`the authorization endpoint of ${redactUrl(input.metadata.issuer)} is not an http(s) URL (${url.protocol}): cannot sign in there`);
  }
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", input.clientId);
  params.set("redirect_uri", input.redirectUri);
  params.set("code_challenge", input.codeChallenge);
  params.set("code_challenge_method", "S256");
  params.set("state", input.state);
  params.set("resource", input.resource);
  if (input.scopes && input.scopes.length > 0) params.set("scope", input.scopes.join(" "));
  else params.delete("scope");
  if (input.metadata.openIdProvider && input.scopes?.includes(OFFLINE_ACCESS)) params.set("prompt", "consent");
  return url.href;
}
