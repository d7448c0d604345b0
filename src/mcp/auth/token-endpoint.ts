import * as v from "valibot";
import { log } from "../../log.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { AuthError } from "./auth-error.ts";
import { authRequest, type AuthAnswer, type AuthRequestOptions } from "./auth-fetch.ts";
import type { AuthorizationServerMetadata } from "./authorization-server-metadata.ts";
import { describeOAuthError, oauthErrorOf, serverWords } from "./oauth-error-answer.ts";

/** Far beyond any real token (JWTs with many claims stay under a few KB); the store keeps them all. */
export const MAX_TOKEN_CHARS = 16 * 1024;

export interface TokenSet {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt?: number;
  scopes?: string[];
}
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";
export interface OAuthClient {
  clientId: string;
  clientSecret?: string;
  authMethod: ClientAuthMethod;
}

const Token = v.pipe(v.string(), v.nonEmpty(), v.maxLength(MAX_TOKEN_CHARS));
/** RFC 6749 §5.1. `expires_in` as a digit string too: some servers quote it. */
const TokenAnswer = v.object({
  access_token: Token,
  token_type: v.string(),
  expires_in: v.optional(v.union([v.pipe(v.number(), v.finite()), v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))])),
  refresh_token: v.optional(Token),
  scope: v.optional(v.string()),
});

/** What each field of a token answer must be, for the message that refuses one. */
const FIELD_RULES: Record<string, string> = {
  access_token: `access_token must be a non-empty string of at most ${MAX_TOKEN_CHARS / 1024} KB`,
  token_type: "token_type must be a string",
  expires_in: "expires_in must be a number of seconds",
  refresh_token: `refresh_token must be a non-empty string of at most ${MAX_TOKEN_CHARS / 1024} KB`,
  scope: "scope must be a string",
};

/**
 * The method to use: the registration's own; else with a secret the first of basic/post the AS
 * supports (basic when it lists none: RFC 8414's default, and RFC 6749 §2.3.1 makes it mandatory
 * for servers); without a secret "none". An AS that lists only "none" gets no secret.
 */
export function chooseAuthMethod(metadata: AuthorizationServerMetadata, clientId: string, clientSecret?: string, registered?: ClientAuthMethod): OAuthClient {
  const client = (authMethod: ClientAuthMethod): OAuthClient => (clientSecret === undefined ? { clientId, authMethod } : { clientId, clientSecret, authMethod });
  if (registered && (registered === "none" || clientSecret !== undefined)) return client(registered);
  if (clientSecret === undefined) return client("none");
  const supported = metadata.tokenEndpointAuthMethodsSupported;
  if (!supported || supported.includes("client_secret_basic")) return client("client_secret_basic");
  if (supported.includes("client_secret_post")) return client("client_secret_post");
  if (supported.includes("none")) return client("none");
  return client("client_secret_basic");
}

export async function exchangeCode(
  input: { metadata: AuthorizationServerMetadata; client: OAuthClient; code: string; codeVerifier: string; redirectUri: string; resource: string; now?: () => number },
  options?: AuthRequestOptions,
): Promise<TokenSet> {
  const params = new URLSearchParams({ grant_type: "authorization_code", code: input.code, code_verifier: input.codeVerifier, redirect_uri: input.redirectUri, resource: input.resource });
  const answer = await authRequest(input.metadata.tokenEndpoint, formPost(input.client, params), options);
  return tokenSet(input.metadata, answer, { now: input.now, grant: "exchanging the sign-in code", needsSignIn: false });
}

/** Keeps the old refresh token when the answer brings none (rotation otherwise). invalid_grant etc. → AuthError with oauthError and needsSignIn: true. */
export async function refreshTokens(
  input: { metadata: AuthorizationServerMetadata; client: OAuthClient; refreshToken: string; resource: string; scopes?: readonly string[]; now?: () => number },
  options?: AuthRequestOptions,
): Promise<TokenSet> {
  const params = new URLSearchParams({ grant_type: "refresh_token", refresh_token: input.refreshToken, resource: input.resource });
  if (input.scopes?.length) params.set("scope", input.scopes.join(" "));
  const answer = await authRequest(input.metadata.tokenEndpoint, formPost(input.client, params), options);
  const tokens = tokenSet(input.metadata, answer, { now: input.now, grant: "refreshing the sign-in", needsSignIn: true, requested: input.scopes });
  return { ...tokens, refreshToken: tokens.refreshToken ?? input.refreshToken };
}

/** The grant of a machine (RFC 6749 §4.4): the client's own credentials, no person, no refresh token needed. */
export async function clientCredentialsGrant(
  input: { metadata: AuthorizationServerMetadata; client: OAuthClient; resource: string; scopes?: readonly string[]; now?: () => number },
  options?: AuthRequestOptions,
): Promise<TokenSet> {
  if (input.client.clientSecret === undefined) {
    throw new AuthError(`the client_credentials grant at ${redactUrl(input.metadata.issuer)} needs a client secret: set "oauth.clientSecret" in the server's entry`);
  }
  const params = new URLSearchParams({ grant_type: "client_credentials", resource: input.resource });
  if (input.scopes?.length) params.set("scope", input.scopes.join(" "));
  const answer = await authRequest(input.metadata.tokenEndpoint, formPost(input.client, params), options);
  return tokenSet(input.metadata, answer, { now: input.now, grant: "the client_credentials grant", needsSignIn: false, requested: input.scopes });
}

/** RFC 7009; resolves false when the AS has no revocation endpoint; never throws for a refusal (logs at debug). */
export async function revokeToken(
  input: { metadata: AuthorizationServerMetadata; client: OAuthClient; token: string; hint: "access_token" | "refresh_token" },
  options?: AuthRequestOptions,
): Promise<boolean> {
  const endpoint = input.metadata.revocationEndpoint;
  if (!endpoint) return false;
  const params = new URLSearchParams({ token: input.token, token_type_hint: input.hint });
  try {
    const answer = await authRequest(endpoint, formPost(input.client, params), options);
    if (answer.status === 200) return true;
    const refusal = oauthErrorOf(answer.json);
    log.debug(`revoking the ${input.hint} at ${redactUrl(endpoint)} was refused: ${answer.status}${refusal ? ` ${describeOAuthError(refusal)}` : ""}`);
  } catch (error) {
    if (options?.signal?.aborted) throw error;
    log.debug(`revoking the ${input.hint} at ${redactUrl(endpoint)} failed: ${(error as Error).message}`);
  }
  return false;
}

/** A form POST with the client's authentication (RFC 6749 §2.3.1). */
function formPost(client: OAuthClient, params: URLSearchParams): RequestInit {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  if (client.authMethod === "client_secret_basic" && client.clientSecret !== undefined) {
    // §2.3.1: id and secret are form-urlencoded first, so a ':' in the id cannot shift the split.
    headers.Authorization = `Basic ${btoa(`${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`)}`;
  } else {
    params.set("client_id", client.clientId);
    if (client.authMethod === "client_secret_post" && client.clientSecret !== undefined) params.set("client_secret", client.clientSecret);
  }
  return { method: "POST", headers, body: params.toString() };
}

function formEncode(text: string): string {
  return new URLSearchParams([["", text]]).toString().slice(1);
}

/** The answer of the token endpoint as tokens, or the AuthError that says why not. */
function tokenSet(
  metadata: AuthorizationServerMetadata,
  answer: AuthAnswer,
  context: { now?: () => number; grant: string; needsSignIn: boolean; requested?: readonly string[] },
): TokenSet {
  const endpoint = redactUrl(metadata.tokenEndpoint);
  const failed = `${context.grant} at ${endpoint} failed`;
  const refusal = oauthErrorOf(answer.json);
  // Some servers answer 200 with an error object: an error without a token is a refusal whatever the status.
  if (refusal && (answer.status >= 400 || !hasAccessToken(answer.json))) {
    const again = context.needsSignIn ? ": sign in again" : "";
    throw new AuthError(`${failed}: the authorization server answered ${describeOAuthError(refusal)}${again}`, { oauthError: refusal.error, needsSignIn: context.needsSignIn });
  }
  if (answer.status >= 300 && answer.status < 400) {
    throw new AuthError(`${failed}: it answered with a redirect (${answer.status}), and cat-code follows none on a token request`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    const start = serverWords(answer.text, 200);
    throw new AuthError(`${failed}: it answered ${answer.status}${start ? `: ${start}` : ""}`);
  }
  if (answer.json === undefined) throw new AuthError(`${failed}: its answer is not JSON`);
  if (!isPlainObject(answer.json)) throw new AuthError(`${failed}: its answer is not a token answer (not a JSON object)`);
  const parsed = v.safeParse(TokenAnswer, answer.json);
  if (!parsed.success) {
    // Named by field only: valibot's message quotes the value received, which may be a token.
    const field = String(parsed.issues[0].path?.[0]?.key ?? "");
    throw new AuthError(`${failed}: its answer is not a token answer (${FIELD_RULES[field] ?? `${field} is invalid`})`);
  }
  const { access_token, token_type, expires_in, refresh_token, scope } = parsed.output;
  if (token_type.toLowerCase() !== "bearer") {
    throw new AuthError(`${failed}: it issued a token of type "${serverWords(token_type, 40)}", and cat-code can only send Bearer tokens`);
  }
  const scopes = scope !== undefined ? scope.split(" ").filter(Boolean) : context.requested?.length ? [...context.requested] : undefined;
  return {
    accessToken: access_token,
    tokenType: "Bearer",
    ...(refresh_token !== undefined ? { refreshToken: refresh_token } : {}),
    ...(expires_in !== undefined ? { expiresAt: (context.now ?? Date.now)() + Math.max(0, expires_in) * 1000 } : {}),
    ...(scopes ? { scopes } : {}),
  };
}

function hasAccessToken(json: unknown): boolean {
  return isPlainObject(json) && "access_token" in json;
}
