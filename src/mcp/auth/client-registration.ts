import * as v from "valibot";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";
import { authRequest, type AuthRequestOptions } from "./auth-fetch.ts";
import type { AuthorizationServerMetadata } from "./authorization-server-metadata.ts";
import { describeOAuthError, oauthErrorOf, serverWords } from "./oauth-error-answer.ts";
import { chooseAuthMethod, type ClientAuthMethod, type OAuthClient } from "./token-endpoint.ts";

/**
 * Where cat-code's Client ID Metadata Document is published: the project's GitHub Pages site, which
 * the repository's pages workflow deploys from docs/oauth-client-metadata.json. GitHub answers it with
 * 200 and application/json, no redirect (the CIMD draft forbids following one, which rules out the
 * release download URLs: they redirect to a storage host).
 */
export const DEFAULT_CLIENT_METADATA_URL = "https://cat-code.github.io/cat-code/oauth-client-metadata.json";

/** A client id or secret longer than this is not one; it would only bloat the credentials file. */
export const MAX_CLIENT_FIELD_CHARS = 4096;

export interface ClientRegistration {
  clientId: string;
  clientSecret?: string;
  authMethod: ClientAuthMethod;
  redirectUris: string[];
  issuer: string;
}

const ClientField = v.pipe(v.string(), v.nonEmpty(), v.maxLength(MAX_CLIENT_FIELD_CHARS));
/** RFC 7591 §3.2.1: what cat-code keeps of the answer. */
const RegistrationAnswer = v.object({
  client_id: ClientField,
  client_secret: v.optional(ClientField),
  token_endpoint_auth_method: v.optional(v.string()),
  redirect_uris: v.optional(v.array(v.pipe(v.string(), v.maxLength(MAX_CLIENT_FIELD_CHARS)))),
});
const AUTH_METHODS: readonly string[] = ["client_secret_basic", "client_secret_post", "none"] satisfies ClientAuthMethod[];

/** RFC 7591 with application_type "native", client_name "cat-code", grant_types [authorization_code, refresh_token], response_types [code], token_endpoint_auth_method "none" (a native client keeps no secret; take what the AS answers). Throws AuthError when the AS has no registration endpoint, saying to set oauth.clientId. */
export async function registerClient(metadata: AuthorizationServerMetadata, redirectUris: string[], options?: AuthRequestOptions): Promise<ClientRegistration> {
  const endpoint = metadata.registrationEndpoint;
  const issuer = redactUrl(metadata.issuer);
  if (!endpoint) {
    throw new AuthError(
      `the authorization server ${issuer} offers no client registration, so cat-code needs a client id registered there by hand: set "oauth.clientId" (and "oauth.clientSecret" if it has one) in the server's entry, e.g. cat-code mcp add --transport http <name> <url> --client-id <id>`,
    );
  }
  const request = {
    client_name: "cat-code",
    application_type: "native",
    redirect_uris: redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  const answer = await authRequest(endpoint, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(request) }, options);
  const failed = `registering cat-code as a client at ${redactUrl(endpoint)} failed`;
  const refusal = oauthErrorOf(answer.json);
  if (answer.status < 200 || answer.status >= 300) {
    const reason = refusal ? `the authorization server answered ${describeOAuthError(refusal)}` : `it answered ${answer.status}${answer.text ? `: ${serverWords(answer.text, 200)}` : ""}`;
    throw new AuthError(`${failed}: ${reason}. Or register a client there by hand and set "oauth.clientId" in the server's entry`, refusal ? { oauthError: refusal.error } : {});
  }
  if (!isPlainObject(answer.json)) throw new AuthError(`${failed}: its answer is not a JSON object`);
  const parsed = v.safeParse(RegistrationAnswer, answer.json);
  if (!parsed.success) {
    // Named by field only: valibot's message quotes the value, which may be a client secret.
    const field = String(parsed.issues[0].path?.[0]?.key ?? "");
    throw new AuthError(`${failed}: its answer has no usable ${field} (RFC 7591 §3.2.1: ${field === "redirect_uris" ? "a list of strings" : `a non-empty string of at most ${MAX_CLIENT_FIELD_CHARS} characters`})`);
  }
  const { client_id, client_secret, token_endpoint_auth_method, redirect_uris } = parsed.output;
  let authMethod: ClientAuthMethod;
  if (token_endpoint_auth_method === undefined) {
    authMethod = chooseAuthMethod(metadata, client_id, client_secret).authMethod;
  } else if (AUTH_METHODS.includes(token_endpoint_auth_method)) {
    authMethod = token_endpoint_auth_method as ClientAuthMethod;
  } else {
    throw new AuthError(
      `${failed}: it registered the client for token endpoint authentication "${serverWords(token_endpoint_auth_method, 60)}", which cat-code does not do (it does client_secret_basic, client_secret_post and none). Register a client there by hand and set "oauth.clientId" in the server's entry`,
    );
  }
  return {
    clientId: client_id,
    ...(client_secret !== undefined ? { clientSecret: client_secret } : {}),
    authMethod,
    redirectUris: redirect_uris ?? [...redirectUris],
    issuer: metadata.issuer,
  };
}

export interface ClientChoice {
  metadata: AuthorizationServerMetadata;
  configured?: { clientId: string; clientSecret?: string };
  clientMetadataUrl?: string;
  stored?: ClientRegistration;
  redirectUri: string;
}

/**
 * The client identity that needs no new registration, in the spec's order (MCP authorization
 * 2025-11-25, "Client Registration Approaches": pre-registered, then Client ID Metadata Document, then
 * dynamic registration): the configured client id; where the authorization server takes a metadata
 * document, the entry's `clientMetadataUrl`, else cat-code's own (DEFAULT_CLIENT_METADATA_URL, whose
 * loopback redirect URI any port matches, RFC 8252 §7.3); else the stored registration of this
 * issuer when it holds `redirectUri`. Undefined: register.
 */
export function clientWithoutRegistering(input: ClientChoice): OAuthClient | undefined {
  const { metadata, configured, stored } = input;
  if (configured) return chooseAuthMethod(metadata, configured.clientId, configured.clientSecret);
  // The URL is the client id as it is given: the AS fetches it and compares it with the document's client_id.
  if (metadata.clientIdMetadataDocumentSupported) return { clientId: input.clientMetadataUrl ?? DEFAULT_CLIENT_METADATA_URL, authMethod: "none" };
  if (stored && stored.issuer === metadata.issuer && stored.redirectUris.includes(input.redirectUri)) {
    return chooseAuthMethod(metadata, stored.clientId, stored.clientSecret, stored.authMethod);
  }
  return undefined;
}

/**
 * The client that tokens naming `clientId` were issued to, for their refresh and revocation: the
 * configured client, the stored registration or the metadata document URL that has this id, never
 * another (the authorization server would refuse it, and a refresh token is not shown to another
 * client). This holds whatever a new sign-in would choose today: tokens of a dynamic registration
 * stay with it after the authorization server starts to offer metadata documents. Undefined when
 * cat-code no longer knows the client.
 */
export function issuedClient(input: Omit<ClientChoice, "redirectUri">, clientId: string): OAuthClient | undefined {
  const { metadata, configured, stored } = input;
  if (configured?.clientId === clientId) return chooseAuthMethod(metadata, configured.clientId, configured.clientSecret);
  if (stored?.clientId === clientId && stored.issuer === metadata.issuer) return chooseAuthMethod(metadata, stored.clientId, stored.clientSecret, stored.authMethod);
  // A metadata document's URL is a public client's id; the entry's URL may have changed since the sign-in.
  if (clientId === input.clientMetadataUrl || clientId === DEFAULT_CLIENT_METADATA_URL) return { clientId, authMethod: "none" };
  return undefined;
}

/** The client identity (see clientWithoutRegistering), else a new registration; `registered` is set when the caller must store one. */
export async function resolveClient(input: ClientChoice, options?: AuthRequestOptions): Promise<{ client: OAuthClient; registered?: ClientRegistration }> {
  const known = clientWithoutRegistering(input);
  if (known) return { client: known };
  const registered = await registerClient(input.metadata, [input.redirectUri], options);
  return { client: chooseAuthMethod(input.metadata, registered.clientId, registered.clientSecret, registered.authMethod), registered };
}
