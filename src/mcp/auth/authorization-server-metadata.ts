import * as v from "valibot";
import { cutText } from "../../system/cut-text.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";
import type { AuthRequestOptions } from "./auth-fetch.ts";
import { firstMetadataDocument, firstProblem, type FoundDocument } from "./metadata-document.ts";
import { checkOAuthUrl } from "./oauth-url.ts";
import { ScopesSupported } from "./scope-selection.ts";

/**
 * Where an authorization server's endpoints are: OAuth 2.0 Authorization Server Metadata (RFC 8414
 * §3, §3.3) and OpenID Connect Discovery 1.0 §4, in the order of MCP authorization 2025-11-25
 * "Authorization Server Metadata Discovery"; the issuer check of RFC 8414 §3.3 (SEP-2468); the
 * PKCE requirement of "Authorization Code Protection"; without any metadata, the defaults of the
 * 2025-03-26 revision ("Fallbacks for Servers without Metadata Discovery").
 */

export interface AuthorizationServerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  revocationEndpoint?: string;
  scopesSupported?: string[];
  /** Absent: RFC 8414 default client_secret_basic. */
  tokenEndpointAuthMethodsSupported?: string[];
  codeChallengeMethodsSupported?: string[];
  grantTypesSupported?: string[];
  clientIdMetadataDocumentSupported: boolean;
  /** RFC 9207 `authorization_response_iss_parameter_supported`. */
  issParameterSupported: boolean;
  /**
   * An OpenID provider (its document lists the `openid` scope or ID token algorithms, which OpenID
   * Connect Discovery requires): it grants `offline_access` only with consent (Core §11).
   */
  openIdProvider?: boolean;
  /** True when no metadata was found and the 2025-03-26 defaults (<origin>/authorize, /token, /register) are used. */
  fallback: boolean;
}

const OAUTH_WELL_KNOWN = "/.well-known/oauth-authorization-server";
const OIDC_WELL_KNOWN = "/.well-known/openid-configuration";

const Endpoint = (field: string) => v.pipe(v.string(`"${field}" must be a string`), v.nonEmpty(`"${field}" is empty`));
const Names = (field: string) => v.nullish(v.array(v.string(`every item of "${field}" must be a string`), `"${field}" must be a list of strings`));
const Flag = (field: string) => v.nullish(v.boolean(`"${field}" must be true or false`));

/** The fields cat-code uses; every other field is ignored. */
const AsDocument = v.object({
  issuer: v.pipe(v.string('"issuer" must be a string'), v.nonEmpty('"issuer" is empty')),
  authorization_endpoint: Endpoint("authorization_endpoint"),
  token_endpoint: Endpoint("token_endpoint"),
  registration_endpoint: v.nullish(Endpoint("registration_endpoint")),
  revocation_endpoint: v.nullish(Endpoint("revocation_endpoint")),
  scopes_supported: ScopesSupported,
  token_endpoint_auth_methods_supported: Names("token_endpoint_auth_methods_supported"),
  code_challenge_methods_supported: Names("code_challenge_methods_supported"),
  grant_types_supported: Names("grant_types_supported"),
  client_id_metadata_document_supported: Flag("client_id_metadata_document_supported"),
  authorization_response_iss_parameter_supported: Flag("authorization_response_iss_parameter_supported"),
  id_token_signing_alg_values_supported: Names("id_token_signing_alg_values_supported"),
});

/**
 * The URLs to try for an issuer, in the spec's order (issuer with a path: /.well-known/oauth-authorization-server<path>,
 * /.well-known/openid-configuration<path>, <path>/.well-known/openid-configuration; without: the first two at the root).
 * Throws AuthError when `issuer` is not an issuer identifier (absolute https: URL, http: on a loopback
 * host, no query, no fragment: RFC 8414 §2).
 */
export function metadataUrls(issuer: string): string[] {
  const url = issuerUrl(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "") return [`${url.origin}${OAUTH_WELL_KNOWN}`, `${url.origin}${OIDC_WELL_KNOWN}`];
  return [`${url.origin}${OAUTH_WELL_KNOWN}${path}`, `${url.origin}${OIDC_WELL_KNOWN}${path}`, `${url.origin}${path}${OIDC_WELL_KNOWN}`];
}

/**
 * Tries metadataUrls in order; checks `issuer` equals the expected issuer exactly (refuse a mismatch,
 * naming both). `legacyFallback` (a 2025-03-26 server): when nothing is found, return that revision's
 * defaults at the issuer's origin (fallback: true) instead of throwing; when the document found names
 * no registration endpoint, the default `/register` is tried all the same (as the revision's
 * "Fallbacks" say for servers that register there without saying so). Refuses metadata without PKCE S256 when
 * code_challenge_methods_supported is given and lacks it.
 *
 * For a 2025-03-26 server (no protected resource metadata) the issuer is the MCP server's origin,
 * its path dropped, as that revision says: the server URL itself would send the search to
 * path-based URLs and never to the root document such a server has.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: AuthRequestOptions & { legacyFallback?: boolean } = {},
): Promise<AuthorizationServerMetadata> {
  const urls = metadataUrls(issuer);
  const found = await firstMetadataDocument(urls, "authorization server metadata", options);
  if (found) {
    const metadata = readMetadata(found, issuer);
    if (!options.legacyFallback || metadata.registrationEndpoint) return metadata;
    return { ...metadata, registrationEndpoint: legacyDefaults(issuer).registrationEndpoint };
  }
  if (options.legacyFallback) return legacyDefaults(issuer);
  throw new AuthError(
    `the authorization server ${showIssuer(issuer)} publishes no metadata (tried ${urls.map(redactUrl).join(", ")}); cat-code cannot sign in to it (tell the server's operator)`,
  );
}

function issuerUrl(issuer: string): URL {
  const refuse = (problem: string) =>
    new AuthError(`the authorization server ${showIssuer(issuer)} ${problem}, so it is no issuer identifier; cat-code does not sign in there`);
  const checked = checkOAuthUrl(issuer);
  if ("problem" in checked) throw refuse(checked.problem);
  if (checked.url.search) throw refuse("has a query");
  return checked.url;
}

/**
 * RFC 8414 §3.3: the document must name the issuer it was asked for, or a server could lend its
 * endpoints to another's name. The one difference let through is the slash a URL parser adds to a
 * pathless issuer (`https://as.example` asked as `https://as.example/`): both are the same URL.
 */
function sameIssuer(published: string, expected: string): boolean {
  if (published === expected) return true;
  return expected.endsWith("/") && published === expected.slice(0, -1) && new URL(expected).pathname === "/";
}

/** An issuer as written (the slash that redactUrl's parser adds would hide the very difference shown), masked when it holds more. */
function showIssuer(issuer: string): string {
  const shown = redactUrl(issuer);
  return shown === `${issuer}/` ? issuer : shown;
}

function readMetadata(found: FoundDocument, issuer: string): AuthorizationServerMetadata {
  const shown = redactUrl(found.url);
  const parsed = v.safeParse(AsDocument, found.json);
  if (!parsed.success) {
    throw new AuthError(`the authorization server metadata at ${shown} is invalid: ${firstProblem(parsed.issues)}; the server publishes broken metadata (tell its operator)`);
  }
  const document = parsed.output;
  if (!sameIssuer(document.issuer, issuer)) {
    throw new AuthError(
      `the authorization server metadata at ${shown} names the issuer ${showIssuer(document.issuer)}, not ${showIssuer(issuer)} it was fetched for: cat-code refuses metadata that speaks for another server (tell the server's operator)`,
    );
  }
  const endpoint = (field: string, value: string): string => {
    const checked = checkOAuthUrl(value);
    if ("problem" in checked) throw new AuthError(`the authorization server metadata at ${shown} gives "${field}" ${redactUrl(value)}, which ${checked.problem}`);
    return value;
  };
  const methods = document.code_challenge_methods_supported ?? undefined;
  if (methods && !methods.includes("S256")) {
    throw new AuthError(
      `the authorization server ${showIssuer(issuer)} does not support PKCE with S256 (its code_challenge_methods_supported lists ${methods.length ? cutText(methods.join(", "), 200) : "nothing"}); cat-code requires it to sign in safely`,
    );
  }
  return {
    issuer: document.issuer,
    authorizationEndpoint: endpoint("authorization_endpoint", document.authorization_endpoint),
    tokenEndpoint: endpoint("token_endpoint", document.token_endpoint),
    ...(document.registration_endpoint ? { registrationEndpoint: endpoint("registration_endpoint", document.registration_endpoint) } : {}),
    ...(document.revocation_endpoint ? { revocationEndpoint: endpoint("revocation_endpoint", document.revocation_endpoint) } : {}),
    ...(document.scopes_supported ? { scopesSupported: document.scopes_supported } : {}),
    ...(document.token_endpoint_auth_methods_supported ? { tokenEndpointAuthMethodsSupported: document.token_endpoint_auth_methods_supported } : {}),
    ...(methods ? { codeChallengeMethodsSupported: methods } : {}),
    ...(document.grant_types_supported ? { grantTypesSupported: document.grant_types_supported } : {}),
    clientIdMetadataDocumentSupported: document.client_id_metadata_document_supported === true,
    issParameterSupported: document.authorization_response_iss_parameter_supported === true,
    ...(document.scopes_supported?.includes("openid") || document.id_token_signing_alg_values_supported?.length ? { openIdProvider: true } : {}),
    fallback: false,
  };
}

/** 2025-03-26: without metadata, the endpoints are these paths at the origin, whatever the issuer's path. */
function legacyDefaults(issuer: string): AuthorizationServerMetadata {
  const { origin } = issuerUrl(issuer);
  return {
    issuer: origin,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
    fallback: true,
  };
}
