import { describe, expect, test } from "bun:test";
import { authorizationUrl } from "../../../../src/mcp/auth/authorization-url.ts";
import { authFailure, offlineMetadata } from "../../../helpers/oauth-endpoint.ts";

const INPUT = {
  clientId: "client 1",
  redirectUri: "http://127.0.0.1:4711/callback",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  state: "state-1",
  resource: "https://mcp.example.com",
};

describe("the authorization URL", () => {
  test("carries the code request, PKCE S256, state, the redirect and the resource exactly as published", () => {
    const url = new URL(authorizationUrl({ ...INPUT, metadata: offlineMetadata(), scopes: ["files:read", "offline_access"] }));
    expect(`${url.origin}${url.pathname}`).toBe("https://as.example.com/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "client 1",
      redirect_uri: "http://127.0.0.1:4711/callback",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      state: "state-1",
      // Pathless, as published: no "/" appended (the conformance suite checks the exact string).
      resource: "https://mcp.example.com",
      scope: "files:read offline_access",
    });
  });

  test("sends no scope when none was chosen, and keeps the endpoint's own query", () => {
    const metadata = offlineMetadata({ authorizationEndpoint: "https://as.example.com/oauth/authorize?tenant=t1&scope=stale" });
    for (const scopes of [undefined, []]) {
      const url = new URL(authorizationUrl({ ...INPUT, metadata, scopes }));
      expect(url.searchParams.has("scope")).toBe(false);
      expect(url.searchParams.get("tenant")).toBe("t1");
      expect(url.pathname).toBe("/oauth/authorize");
    }
  });

  test("offline_access asked of an OpenID provider carries prompt=consent (OIDC Core §11); nothing else does", () => {
    const prompt = (openIdProvider: boolean, scopes: string[]) =>
      new URL(authorizationUrl({ ...INPUT, metadata: offlineMetadata(openIdProvider ? { openIdProvider } : {}), scopes })).searchParams.get("prompt");
    expect(prompt(true, ["mcp:read", "offline_access"])).toBe("consent");
    expect(prompt(true, ["mcp:read"])).toBeNull();
    expect(prompt(false, ["mcp:read", "offline_access"])).toBeNull();
  });

  test("refuses an endpoint that is not http(s): the system's opener would run it", async () => {
    const metadata = offlineMetadata({ authorizationEndpoint: "file:///etc/passwd" });
    const error = await authFailure((async () => authorizationUrl({ ...INPUT, metadata }))());
    expect(error.message).toBe("the authorization endpoint of https://as.example.com/ is not an http(s) URL (file:): cannot sign in there");
  });
});
