import { afterEach, expect, test } from "bun:test";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import type { AuthorizationServerMetadata } from "../../../../src/mcp/auth/authorization-server-metadata.ts";
import { authorizationUrl } from "../../../../src/mcp/auth/authorization-url.ts";
import { resolveClient } from "../../../../src/mcp/auth/client-registration.ts";
import { listenForCallback } from "../../../../src/mcp/auth/loopback-listener.ts";
import { createPkce, randomState } from "../../../../src/mcp/auth/pkce.ts";
import { exchangeCode } from "../../../../src/mcp/auth/token-endpoint.ts";
import { authFailure } from "../../../helpers/oauth-endpoint.ts";

/** The SDK's router mounts on an express app; express has no types installed here, so it is described by what is used. */
const express = createRequire(import.meta.url)("express") as () => { use(handler: unknown): void; listen(port: number, host: string, callback: () => void): Server };

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.close();
    server.closeAllConnections();
  }
});

/** The official SDK's authorization server (its router and its in-memory demo provider), on 127.0.0.1. */
async function sdkAuthorizationServer(): Promise<{ metadata: AuthorizationServerMetadata; provider: DemoInMemoryAuthProvider }> {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  servers.push(server);
  const issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const provider = new DemoInMemoryAuthProvider();
  app.use(mcpAuthRouter({ provider, issuerUrl: issuer, scopesSupported: ["mcp:tools"] }));
  // What discovery (helper H1's unit) makes of the SDK's document, mapped by hand here.
  const document = (await (await fetch(new URL("/.well-known/oauth-authorization-server", issuer))).json()) as Record<string, any>;
  return {
    provider,
    metadata: {
      issuer: document.issuer,
      authorizationEndpoint: document.authorization_endpoint,
      tokenEndpoint: document.token_endpoint,
      registrationEndpoint: document.registration_endpoint,
      tokenEndpointAuthMethodsSupported: document.token_endpoint_auth_methods_supported,
      codeChallengeMethodsSupported: document.code_challenge_methods_supported,
      scopesSupported: document.scopes_supported,
      clientIdMetadataDocumentSupported: false,
      issParameterSupported: false,
      fallback: false,
    },
  };
}

/** The browser: follows the authorization server's redirect to the loopback listener. */
async function approveInBrowser(url: string): Promise<string> {
  const answer = await fetch(url, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const location = answer.headers.get("location")!;
  await (await fetch(location)).text();
  return location;
}

test("the whole grant against the SDK's authorization server: DCR, authorize with PKCE, the loopback redirect, the code exchange", async () => {
  const { metadata, provider } = await sdkAuthorizationServer();
  const state = randomState();
  const listener = await listenForCallback({ state, issuer: metadata.issuer, issParameterSupported: metadata.issParameterSupported });
  try {
    const { client, registered } = await resolveClient({ metadata, redirectUri: listener.redirectUri });
    expect(registered?.redirectUris).toEqual([listener.redirectUri]);
    expect(client.authMethod).toBe("none");
    expect(await provider.clientsStore.getClient(client.clientId)).toMatchObject({ client_name: "cat-code", token_endpoint_auth_method: "none", redirect_uris: [listener.redirectUri] });
    const pkce = createPkce();
    const resource = "http://127.0.0.1:1/mcp";
    const url = authorizationUrl({ metadata, clientId: client.clientId, redirectUri: listener.redirectUri, codeChallenge: pkce.challenge, state, resource, scopes: ["mcp:tools"] });
    await approveInBrowser(url);
    const { code } = await listener.response;
    const tokens = await exchangeCode({ metadata, client, code, codeVerifier: pkce.verifier, redirectUri: listener.redirectUri, resource, now: () => 1_000 });
    expect(tokens).toMatchObject({ tokenType: "Bearer", expiresAt: 1_000 + 3_600_000, scopes: ["mcp:tools"] });
    const issued = await provider.verifyAccessToken(tokens.accessToken);
    expect(issued).toMatchObject({ clientId: client.clientId, scopes: ["mcp:tools"] });
    expect(issued.resource?.href).toBe(resource);
  } finally {
    listener.close();
  }
});

test("the SDK's server refuses a wrong PKCE verifier, and the refusal is an AuthError with its code", async () => {
  const { metadata } = await sdkAuthorizationServer();
  const state = randomState();
  const listener = await listenForCallback({ state, issuer: metadata.issuer, issParameterSupported: false });
  try {
    const { client } = await resolveClient({ metadata, redirectUri: listener.redirectUri });
    const resource = "http://127.0.0.1:1/mcp";
    await approveInBrowser(authorizationUrl({ metadata, clientId: client.clientId, redirectUri: listener.redirectUri, codeChallenge: createPkce().challenge, state, resource }));
    const { code } = await listener.response;
    const error = await authFailure(exchangeCode({ metadata, client, code, codeVerifier: createPkce().verifier, redirectUri: listener.redirectUri, resource }));
    expect(error.oauthError).toBe("invalid_grant");
    expect(error.message).toStartWith(`exchanging the sign-in code at ${metadata.tokenEndpoint} failed: the authorization server answered invalid_grant`);
  } finally {
    listener.close();
  }
});
