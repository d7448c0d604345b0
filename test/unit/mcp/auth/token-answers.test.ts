import { describe, expect, test } from "bun:test";
import { exchangeCode, refreshTokens, type OAuthClient } from "../../../../src/mcp/auth/token-endpoint.ts";
import type { AuthorizationServerMetadata } from "../../../../src/mcp/auth/authorization-server-metadata.ts";
import { authFailure, oauthEndpoints } from "../../../helpers/oauth-endpoint.ts";

const endpoint = oauthEndpoints();
const CLIENT: OAuthClient = { clientId: "public-1", authMethod: "none" };
const NOW = 1_800_000_000_000;
const now = () => NOW;

function exchange(metadata: AuthorizationServerMetadata) {
  return exchangeCode({ metadata, client: CLIENT, code: "CODE-SECRET", codeVerifier: "VERIFIER-SECRET", redirectUri: "http://127.0.0.1:5000/callback", resource: "https://mcp.example.com", now });
}
function refresh(metadata: AuthorizationServerMetadata, scopes?: string[]) {
  return refreshTokens({ metadata, client: CLIENT, refreshToken: "RT-OLD", resource: "https://mcp.example.com", scopes, now });
}

describe("token answers become tokens", () => {
  test("expires_in becomes expiresAt from the injected clock; token_type any case becomes Bearer; scope is split", async () => {
    const as = endpoint(() => Response.json({ access_token: "AT-1", token_type: "bEaReR", expires_in: 3600, refresh_token: "RT-1", scope: "files:read  offline_access" }));
    expect(await exchange(as.metadata())).toEqual({ accessToken: "AT-1", tokenType: "Bearer", refreshToken: "RT-1", expiresAt: NOW + 3_600_000, scopes: ["files:read", "offline_access"] });
  });

  test("no expires_in, no scope, no refresh token: none of them invented", async () => {
    const as = endpoint(() => Response.json({ access_token: "AT-1", token_type: "Bearer" }));
    expect(await exchange(as.metadata())).toEqual({ accessToken: "AT-1", tokenType: "Bearer" });
  });

  test("a rotating refresh token replaces the old one", async () => {
    const as = endpoint(() => Response.json({ access_token: "AT-2", token_type: "Bearer", refresh_token: "RT-NEW", expires_in: "60" }));
    const tokens = await refresh(as.metadata());
    expect(tokens.refreshToken).toBe("RT-NEW");
    expect(tokens.expiresAt).toBe(NOW + 60_000);
  });

  test("a refresh answer without a refresh token keeps the old one, and the scopes asked for when it names none", async () => {
    const as = endpoint(() => Response.json({ access_token: "AT-2", token_type: "Bearer" }));
    expect(await refresh(as.metadata(), ["a", "b"])).toEqual({ accessToken: "AT-2", tokenType: "Bearer", refreshToken: "RT-OLD", scopes: ["a", "b"] });
  });
});

describe("token answers that are refused", () => {
  test("invalid_grant on a refresh: AuthError with oauthError, needsSignIn, the server's words cleaned and cut", async () => {
    const description = `The refresh token has expired\u001b]0;pwned\u0007\u202e ${"x".repeat(1000)}`;
    const as = endpoint(() => Response.json({ error: "invalid_grant", error_description: description }, { status: 400 }));
    const error = await authFailure(refresh(as.metadata()));
    expect(error.oauthError).toBe("invalid_grant");
    expect(error.needsSignIn).toBe(true);
    expect(error.message).toStartWith(`refreshing the sign-in at ${as.origin}/token failed: the authorization server answered invalid_grant (The refresh token has expired ]0;pwned x`);
    expect(error.message).toEndWith("…): sign in again");
    expect(error.message).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).not.toContain("RT-OLD");
  });

  test("an error on the code exchange is a plain failure that never shows the code or the verifier", async () => {
    const as = endpoint(() => Response.json({ error: "invalid_client" }, { status: 401 }));
    const error = await authFailure(exchange(as.metadata()));
    expect(error.message).toBe(`exchanging the sign-in code at ${as.origin}/token failed: the authorization server answered invalid_client`);
    expect(error.oauthError).toBe("invalid_client");
    expect(error.needsSignIn).toBe(false);
  });

  test("an error object in a 200 answer is still a refusal", async () => {
    const as = endpoint(() => Response.json({ error: "bad_verification_code", error_description: "The code is wrong" }));
    const error = await authFailure(exchange(as.metadata()));
    expect(error.message).toEndWith("answered bad_verification_code (The code is wrong)");
  });

  test("a body that is not JSON: on a 200, and on an error page", async () => {
    const ok = endpoint(() => new Response("<html>welcome</html>", { headers: { "Content-Type": "text/html" } }));
    expect((await authFailure(exchange(ok.metadata()))).message).toBe(`exchanging the sign-in code at ${ok.origin}/token failed: its answer is not JSON`);
    const down = endpoint(() => new Response("Bad Gateway\u001b[31m", { status: 502 }));
    const error = await authFailure(refresh(down.metadata()));
    expect(error.message).toBe(`refreshing the sign-in at ${down.origin}/token failed: it answered 502: Bad Gateway [31m`);
    // A server that is down is no reason to sign in again.
    expect(error.needsSignIn).toBe(false);
  });

  test("a token type other than Bearer is refused", async () => {
    const as = endpoint(() => Response.json({ access_token: "AT-1", token_type: "DPoP" }));
    expect((await authFailure(exchange(as.metadata()))).message).toBe(
      `exchanging the sign-in code at ${as.origin}/token failed: it issued a token of type "DPoP", and cat-code can only send Bearer tokens`,
    );
  });

  test("a missing, empty or oversized access_token is refused without quoting it", async () => {
    const rule = "access_token must be a non-empty string of at most 16 KB";
    for (const body of [{ token_type: "Bearer" }, { access_token: "", token_type: "Bearer" }, { access_token: `HUGE-${"t".repeat(16 * 1024)}`, token_type: "Bearer" }]) {
      const as = endpoint(() => Response.json(body));
      const error = await authFailure(exchange(as.metadata()));
      expect(error.message).toBe(`exchanging the sign-in code at ${as.origin}/token failed: its answer is not a token answer (${rule})`);
    }
  });

  test("a malformed expires_in or a JSON that is not an object is refused", async () => {
    const bad = endpoint(() => Response.json({ access_token: "AT", token_type: "Bearer", expires_in: "soon" }));
    expect((await authFailure(exchange(bad.metadata()))).message).toEndWith("(expires_in must be a number of seconds)");
    const list = endpoint(() => Response.json(["AT"]));
    expect((await authFailure(exchange(list.metadata()))).message).toEndWith("(not a JSON object)");
  });

  test("a redirect from the token endpoint is not followed", async () => {
    const elsewhere = endpoint(() => Response.json({ access_token: "AT", token_type: "Bearer" }));
    const as = endpoint(() => new Response(null, { status: 307, headers: { Location: `${elsewhere.origin}/token` } }));
    expect((await authFailure(exchange(as.metadata()))).message).toBe(
      `exchanging the sign-in code at ${as.origin}/token failed: it answered with a redirect (307), and cat-code follows none on a token request`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });
});
