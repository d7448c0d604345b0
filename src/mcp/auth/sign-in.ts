import type { Clock } from "../../system/clock.ts";
import { redactUrl } from "../../system/redact-url.ts";
import type { OAuthConfig } from "../config/server-config.ts";
import { AuthError } from "./auth-error.ts";
import type { AuthRequestOptions } from "./auth-fetch.ts";
import { type AuthorizationServerMetadata, discoverAuthorizationServer } from "./authorization-server-metadata.ts";
import { authorizationUrl } from "./authorization-url.ts";
import { clientWithoutRegistering, issuedClient, resolveClient } from "./client-registration.ts";
import type { CredentialKey, CredentialsStore, StoredTokens } from "./credentials-store.ts";
import { listenForCallback } from "./loopback-listener.ts";
import { createPkce, randomState } from "./pkce.ts";
import { discoverProtectedResource } from "./protected-resource-metadata.ts";
import { chooseScopes } from "./scope-selection.ts";
import { chooseAuthMethod, clientCredentialsGrant, exchangeCode, type OAuthClient, type TokenSet } from "./token-endpoint.ts";
import type { BearerChallenge } from "./www-authenticate.ts";

/** How long a sign-in waits for the browser to come back (the five minutes). */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/**
 * What only a person can do: see the authorization URL and open it. The front end decides how (print
 * it, open the browser, both); without one, a server that wants a browser sign-in is NEEDS-AUTH.
 */
export interface SignInInteraction {
  /** Called once per sign-in with the URL to open; may return before the browser comes back. */
  openAuthorizationUrl(url: string): Promise<void> | void;
  /** Ctrl-C: ends a sign-in that waits for the browser, closing the listener. */
  signal?: AbortSignal;
  /** How long to wait for the browser (default SIGN_IN_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * Called once when a sign-in in the browser brought no refresh token: the person will have to sign
   * in again when the access token expires (`expiresAt`, epoch ms, when the server said), and should
   * hear so now rather than be surprised then.
   */
  noRefreshToken?(expiresAt: number | undefined): void;
}

/** Where the server's authorization lives: found once per sign-in or refresh, never stored. */
export interface AuthorizationTarget {
  metadata: AuthorizationServerMetadata;
  /** The `resource` parameter (RFC 8707): the metadata's resource as published, else the server URL. */
  resource: string;
  /** The protected resource's `scopes_supported`, for scope selection. */
  resourceScopes?: string[];
}

export interface SignInContext {
  serverName: string;
  /** What the user runs to sign in to this server (`cat-code mcp login <name>`, `/mcp login <name>`). */
  loginHint: string;
  serverUrl: string;
  oauth: OAuthConfig | undefined;
  store: CredentialsStore;
  key: CredentialKey;
  request: AuthRequestOptions;
  now: () => number;
  clock?: Clock;
}

/**
 * Finds the authorization server of a protected resource: its metadata document (RFC 9728) and the
 * first authorization server it names (RFC 8414 / OpenID discovery). A server with no metadata
 * document is a 2025-03-26 server: its origin is the authorization server, with the default
 * endpoints when it publishes no metadata either.
 */
export async function findAuthorization(serverUrl: string, challenge: BearerChallenge | undefined, request: AuthRequestOptions): Promise<AuthorizationTarget> {
  const resource = await discoverProtectedResource(serverUrl, challenge, request);
  if (!resource) {
    const metadata = await discoverAuthorizationServer(new URL(serverUrl).origin, { ...request, legacyFallback: true });
    return { metadata, resource: serverUrl };
  }
  const issuer = resource.authorizationServers[0]!;
  const metadata = await discoverAuthorizationServer(issuer, request);
  return { metadata, resource: resource.resource, resourceScopes: resource.scopesSupported };
}

/**
 * The client to use with an authorization server without registering anew (a refresh, a revocation).
 * For tokens that name the client they were issued to (`clientId`), that client only (issuedClient);
 * for tokens of older cat-codes, which name none, the one a sign-in would choose, short of a new
 * registration. Undefined when none is known.
 */
export function knownClient(context: Pick<SignInContext, "oauth" | "store">, metadata: AuthorizationServerMetadata, clientId?: string): OAuthClient | undefined {
  const choice = { metadata, configured: configuredClient(context.oauth), clientMetadataUrl: context.oauth?.clientMetadataUrl };
  if (clientId !== undefined) return issuedClient({ ...choice, stored: context.store.registration(metadata.issuer, { clientId }) }, clientId);
  const stored = context.store.registration(metadata.issuer);
  return clientWithoutRegistering({ ...choice, stored, redirectUri: stored?.redirectUris[0] ?? "" });
}

/**
 * One sign-in: client credentials for a machine entry, else the authorization code flow with PKCE
 * through the browser and a loopback listener. Stores and returns the new tokens. `previous` is the
 * scope set held so far (a step-up asks for the union), `challenge` the refusal that asked.
 */
export async function signIn(
  context: SignInContext,
  interaction: SignInInteraction | undefined,
  challenge: BearerChallenge | undefined,
  previous: readonly string[] | undefined,
): Promise<StoredTokens> {
  const target = await findAuthorization(context.serverUrl, challenge, context.request);
  const { metadata, resource } = target;
  const wanted = context.store.wantedScopes(context.key);
  const scopes = chooseScopes({
    challenge: challenge?.scope,
    configured: context.oauth?.scopes,
    resourceScopes: target.resourceScopes,
    previous: [...(previous ?? []), ...(wanted ?? [])],
    serverScopes: metadata.scopesSupported,
    machine: context.oauth?.grant === "client_credentials",
  });
  let tokens: TokenSet & { clientId: string };
  if (context.oauth?.grant === "client_credentials") {
    const { clientId, clientSecret } = context.oauth;
    const client = chooseAuthMethod(metadata, clientId!, clientSecret);
    tokens = { ...(await clientCredentialsGrant({ metadata, client, resource, scopes, now: context.now }, context.request)), clientId: client.clientId };
  } else {
    if (!interaction) throw needsSignIn(context, challenge);
    tokens = await browserSignIn(context, interaction, target, scopes);
    if (tokens.refreshToken === undefined) interaction.noRefreshToken?.(tokens.expiresAt);
  }
  const stored: StoredTokens = { ...tokens, scopes: tokens.scopes ?? scopes, issuer: metadata.issuer, resource: context.serverUrl, savedAt: context.now() };
  await context.store.saveTokens(context.key, stored);
  return stored;
}

/** The authorization code flow: listener, client, PKCE, the browser, the code exchanged for tokens (and the client they went to). */
async function browserSignIn(
  context: SignInContext,
  interaction: SignInInteraction,
  { metadata, resource }: AuthorizationTarget,
  scopes: string[] | undefined,
): Promise<TokenSet & { clientId: string }> {
  const state = randomState();
  const listener = await listenOnKnownPort(context, metadata, state, context.store.registration(metadata.issuer)?.redirectUris, interaction);
  // Another sign-in may hold the newest registration's port: this one then uses the registration of the port it got, or registers.
  const stored = context.store.registration(metadata.issuer, { redirectUri: listener.redirectUri });
  try {
    const { client, registered } = await resolveClient(
      { metadata, configured: configuredClient(context.oauth), clientMetadataUrl: context.oauth?.clientMetadataUrl, stored, redirectUri: listener.redirectUri },
      context.request,
    );
    if (registered) await context.store.saveRegistration(registered);
    const pkce = createPkce();
    const url = authorizationUrl({ metadata, clientId: client.clientId, redirectUri: listener.redirectUri, codeChallenge: pkce.challenge, state, resource, scopes });
    await interaction.openAuthorizationUrl(url);
    const { code } = await listener.response;
    const tokens = await exchangeCode(
      { metadata, client, code, codeVerifier: pkce.verifier, redirectUri: listener.redirectUri, resource, now: context.now },
      context.request,
    );
    return { ...tokens, clientId: client.clientId };
  } finally {
    listener.close();
  }
}

/**
 * The listener, on the configured port; else on the port of the stored registration's redirect URI
 * (most authorization servers match redirect URIs exactly, so a registration is only good for its
 * port), or any free port when that one is taken or there is none.
 */
async function listenOnKnownPort(
  context: SignInContext,
  metadata: AuthorizationServerMetadata,
  state: string,
  registeredUris: readonly string[] | undefined,
  interaction: SignInInteraction,
) {
  const options = {
    state,
    issuer: metadata.issuer,
    issParameterSupported: metadata.issParameterSupported,
    timeoutMs: interaction.timeoutMs ?? SIGN_IN_TIMEOUT_MS,
    clock: context.clock,
    signal: interaction.signal,
  };
  if (context.oauth?.callbackPort !== undefined) return listenForCallback({ ...options, port: context.oauth.callbackPort });
  const registeredPort = registeredUris?.map(loopbackPort).find((port) => port !== undefined);
  if (registeredPort !== undefined) {
    try {
      return await listenForCallback({ ...options, port: registeredPort });
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
    }
  }
  return listenForCallback({ ...options, port: 0 });
}

function loopbackPort(uri: string): number | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  return url.hostname === "127.0.0.1" && url.port ? Number(url.port) : undefined;
}

function configuredClient(oauth: OAuthConfig | undefined): { clientId: string; clientSecret?: string } | undefined {
  return oauth?.clientId ? { clientId: oauth.clientId, clientSecret: oauth.clientSecret } : undefined;
}

/**
 * The NEEDS-AUTH error: what the server wants and the one command that gives it; `because`, when the
 * tokens held cannot be renewed for a reason the user should hear (their client is gone).
 */
export function needsSignIn(
  context: Pick<SignInContext, "serverName" | "serverUrl" | "loginHint">,
  challenge: BearerChallenge | undefined,
  wantedScopes?: readonly string[],
  because?: string,
): AuthError {
  const what = wantedScopes?.length ? `needs more access (scope ${wantedScopes.join(" ")})` : because ? `needs you to sign in again (${because})` : "needs you to sign in";
  return new AuthError(`'${context.serverName}' (${redactUrl(context.serverUrl)}) ${what}: run ${context.loginHint}`, {
    needsSignIn: true,
    wantedScopes,
    oauthError: challenge?.error,
  });
}
