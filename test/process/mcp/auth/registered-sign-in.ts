import { afterEach } from "bun:test";
import { discoverAuthorizationServer } from "../../../../src/mcp/auth/authorization-server-metadata.ts";
import { authorizationUrl } from "../../../../src/mcp/auth/authorization-url.ts";
import { registerClient } from "../../../../src/mcp/auth/client-registration.ts";
import { type CredentialKey, CredentialsStore, type StoredTokens } from "../../../../src/mcp/auth/credentials-store.ts";
import { createPkce } from "../../../../src/mcp/auth/pkce.ts";
import { chooseAuthMethod, exchangeCode } from "../../../../src/mcp/auth/token-endpoint.ts";
import { type OAuthServerProcess, spawnOAuthServer } from "../../../helpers/oauth-server-process.ts";
import { tempDir } from "../../../helpers/paths.ts";

/**
 * Test set-up for what a refresh or a logout does with tokens already stored: the OAuth fixture
 * (stopped after each test), a store in a temp home, and a sign-in made by dynamic client
 * registration step by step, with no browser (the fixture approves at once; its redirect carries the
 * code), the way cat-code signed in before the fixture's authorization server offered anything else.
 */

export function oauthFixtures(): (flags?: string[]) => Promise<OAuthServerProcess> {
  const running: OAuthServerProcess[] = [];
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop();
  });
  return async (flags = []) => {
    const server = await spawnOAuthServer(flags);
    running.push(server);
    return server;
  };
}

export function storeIn(home = tempDir("cat-code-auth-")): CredentialsStore {
  return new CredentialsStore({ env: { CAT_CODE_HOME: home } });
}

/** The key the authorizer of entry `notes` at the fixture uses. */
export function notesKey(server: OAuthServerProcess): CredentialKey {
  return { server: "notes", url: server.mcpUrl };
}

/** Registers a client, signs in with it and stores both, as a sign-in by registration leaves them. */
export async function signInByRegistration(server: OAuthServerProcess, store: CredentialsStore): Promise<StoredTokens> {
  const metadata = await discoverAuthorizationServer(server.issuer);
  const redirectUri = "http://127.0.0.1:9/callback";
  const registration = await registerClient(metadata, [redirectUri]);
  await store.saveRegistration(registration);
  const pkce = createPkce();
  const url = authorizationUrl({ metadata, clientId: registration.clientId, redirectUri, codeChallenge: pkce.challenge, state: "s", resource: server.mcpUrl });
  const approval = await fetch(url, { redirect: "manual" });
  await approval.arrayBuffer();
  const code = new URL(approval.headers.get("location") ?? "http://nowhere/").searchParams.get("code");
  if (!code) throw new Error(`the fixture approved no code: ${approval.status} ${approval.headers.get("location")}`);
  const client = chooseAuthMethod(metadata, registration.clientId, registration.clientSecret, registration.authMethod);
  const tokens = await exchangeCode({ metadata, client, code, codeVerifier: pkce.verifier, redirectUri, resource: server.mcpUrl, now: Date.now });
  const stored: StoredTokens = { ...tokens, issuer: metadata.issuer, resource: server.mcpUrl, clientId: registration.clientId, savedAt: Date.now() };
  await store.saveTokens(notesKey(server), stored);
  return stored;
}

/** Whether the fixture's MCP server takes `token` now. */
export async function takesToken(server: OAuthServerProcess, token: string): Promise<boolean> {
  const response = await fetch(server.mcpUrl, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  await response.arrayBuffer();
  return response.status !== 401;
}

/** The form of each refresh_token grant the fixture received. */
export function refreshGrants(server: OAuthServerProcess): Record<string, string>[] {
  return server.records().flatMap((r) => (r.path === "/token" && r.form?.grant_type === "refresh_token" ? [r.form] : []));
}
