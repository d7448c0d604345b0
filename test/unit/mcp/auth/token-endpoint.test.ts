import { describe, expect, test } from "bun:test";
import { chooseAuthMethod, clientCredentialsGrant, exchangeCode, refreshTokens, revokeToken, type OAuthClient } from "../../../../src/mcp/auth/token-endpoint.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { authFailure, oauthEndpoints, offlineMetadata } from "../../../helpers/oauth-endpoint.ts";

const endpoint = oauthEndpoints();
const tokenAnswer = () => Response.json({ access_token: "AT-1", token_type: "Bearer", expires_in: 3600 });
const RESOURCE = "https://mcp.example.com";

function basic(header: string | null): [string, string] {
  expect(header).toStartWith("Basic ");
  const decoded = atob(header!.slice(6));
  const colon = decoded.indexOf(":");
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

describe("the token request authenticates the client as the method says (RFC 6749 §2.3.1)", () => {
  test("client_secret_basic: id and secret form-urlencoded, then base64, in the Authorization header; neither in the body", async () => {
    const as = endpoint(tokenAnswer);
    const client: OAuthClient = { clientId: "cat code:1/é", clientSecret: "s3cr3t:+&=%", authMethod: "client_secret_basic" };
    await exchangeCode({ metadata: as.metadata(), client, code: "CODE-1", codeVerifier: "VERIFIER-1", redirectUri: "http://127.0.0.1:5000/callback", resource: RESOURCE });
    const [request] = as.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/token");
    expect(request!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(request!.headers.get("accept")).toBe("application/json");
    const [id, secret] = basic(request!.headers.get("authorization"));
    expect(id).toBe("cat+code%3A1%2F%C3%A9");
    expect(secret).toBe("s3cr3t%3A%2B%26%3D%25");
    expect(new URLSearchParams(`a=${id}&b=${secret}`).get("a")).toBe("cat code:1/é");
    expect(new URLSearchParams(`a=${id}&b=${secret}`).get("b")).toBe("s3cr3t:+&=%");
    expect(Object.fromEntries(request!.form)).toEqual({
      grant_type: "authorization_code",
      code: "CODE-1",
      code_verifier: "VERIFIER-1",
      redirect_uri: "http://127.0.0.1:5000/callback",
      resource: RESOURCE,
    });
  });

  test("client_secret_post: client_id and client_secret in the body, no Authorization header", async () => {
    const as = endpoint(tokenAnswer);
    const client: OAuthClient = { clientId: "id-1", clientSecret: "secret-1", authMethod: "client_secret_post" };
    await exchangeCode({ metadata: as.metadata(), client, code: "CODE-1", codeVerifier: "V", redirectUri: "http://127.0.0.1:5000/callback", resource: RESOURCE });
    const [request] = as.requests;
    expect(request!.headers.get("authorization")).toBeNull();
    expect(request!.form.get("client_id")).toBe("id-1");
    expect(request!.form.get("client_secret")).toBe("secret-1");
  });

  test("none: only client_id in the body, even when a secret is known", async () => {
    const as = endpoint(tokenAnswer);
    const client: OAuthClient = { clientId: "public-1", clientSecret: "never-sent", authMethod: "none" };
    await exchangeCode({ metadata: as.metadata(), client, code: "CODE-1", codeVerifier: "V", redirectUri: "http://127.0.0.1:5000/callback", resource: RESOURCE });
    const [request] = as.requests;
    expect(request!.headers.get("authorization")).toBeNull();
    expect(request!.form.get("client_id")).toBe("public-1");
    expect(request!.form.has("client_secret")).toBe(false);
    expect(request!.body).not.toContain("never-sent");
  });

  test("a refresh sends the refresh token, the resource and the scopes asked for", async () => {
    const as = endpoint(tokenAnswer);
    const client: OAuthClient = { clientId: "public-1", authMethod: "none" };
    await refreshTokens({ metadata: as.metadata(), client, refreshToken: "RT-1", resource: RESOURCE, scopes: ["a", "b"] });
    expect(Object.fromEntries(as.requests[0]!.form)).toEqual({ grant_type: "refresh_token", refresh_token: "RT-1", resource: RESOURCE, scope: "a b", client_id: "public-1" });
  });

  test("client_credentials (conformance auth/client-credentials-basic): grant, resource, scope; Basic credentials", async () => {
    const as = endpoint(tokenAnswer);
    const metadata = as.metadata({ tokenEndpointAuthMethodsSupported: ["client_secret_basic"], grantTypesSupported: ["client_credentials"] });
    const client = chooseAuthMethod(metadata, "conformance-test-client", "conformance-test-secret");
    const tokens = await clientCredentialsGrant({ metadata, client, resource: RESOURCE, scopes: ["read"] });
    expect(tokens.accessToken).toBe("AT-1");
    const [request] = as.requests;
    expect(basic(request!.headers.get("authorization"))).toEqual(["conformance-test-client", "conformance-test-secret"]);
    expect(Object.fromEntries(request!.form)).toEqual({ grant_type: "client_credentials", resource: RESOURCE, scope: "read" });
  });

  test("client_credentials without a secret is refused before anything is sent", async () => {
    const as = endpoint(tokenAnswer);
    const error = await authFailure(clientCredentialsGrant({ metadata: as.metadata(), client: { clientId: "id", authMethod: "none" }, resource: RESOURCE }));
    expect(error.message).toBe(`the client_credentials grant at ${as.origin}/ needs a client secret: set "oauth.clientSecret" in the server's entry`);
    expect(as.requests).toHaveLength(0);
  });
});

describe("choosing the client's authentication", () => {
  test("the registration's own method wins", () => {
    const metadata = offlineMetadata({ tokenEndpointAuthMethodsSupported: ["client_secret_basic", "client_secret_post"] });
    expect(chooseAuthMethod(metadata, "id", "secret", "client_secret_post")).toEqual({ clientId: "id", clientSecret: "secret", authMethod: "client_secret_post" });
    expect(chooseAuthMethod(metadata, "id", undefined, "none")).toEqual({ clientId: "id", authMethod: "none" });
  });

  test("with a secret: basic when supported or nothing is listed (RFC 8414's default), else post, else none", () => {
    const method = (supported?: string[]) => chooseAuthMethod(offlineMetadata({ tokenEndpointAuthMethodsSupported: supported }), "id", "secret").authMethod;
    expect(method(undefined)).toBe("client_secret_basic");
    expect(method(["client_secret_post", "client_secret_basic"])).toBe("client_secret_basic");
    expect(method(["client_secret_post"])).toBe("client_secret_post");
    expect(method(["none"])).toBe("none");
    expect(method(["private_key_jwt"])).toBe("client_secret_basic");
  });

  test("without a secret: none, whatever is supported or registered", () => {
    const metadata = offlineMetadata({ tokenEndpointAuthMethodsSupported: ["client_secret_basic"] });
    expect(chooseAuthMethod(metadata, "id").authMethod).toBe("none");
    expect(chooseAuthMethod(metadata, "id", undefined, "client_secret_basic").authMethod).toBe("none");
  });
});

describe("revocation (RFC 7009)", () => {
  test("posts the token with its hint and the client's authentication; true on 200", async () => {
    const as = endpoint(() => new Response(null, { status: 200 }));
    const client: OAuthClient = { clientId: "id-1", clientSecret: "secret-1", authMethod: "client_secret_basic" };
    expect(await revokeToken({ metadata: as.metadata(), client, token: "RT-9", hint: "refresh_token" })).toBe(true);
    const [request] = as.requests;
    expect(request!.path).toBe("/revoke");
    expect(Object.fromEntries(request!.form)).toEqual({ token: "RT-9", token_type_hint: "refresh_token" });
    expect(basic(request!.headers.get("authorization"))).toEqual(["id-1", "secret-1"]);
  });

  test("false without a revocation endpoint, and nothing sent", async () => {
    const as = endpoint(() => new Response(null, { status: 200 }));
    const metadata = as.metadata({ revocationEndpoint: undefined });
    expect(await revokeToken({ metadata, client: { clientId: "id", authMethod: "none" }, token: "T", hint: "access_token" })).toBe(false);
    expect(as.requests).toHaveLength(0);
  });

  test("a refusal or an endpoint that is down resolves false, logged at debug without the token", async () => {
    const as = endpoint(() => Response.json({ error: "unsupported_token_type" }, { status: 400 }));
    const client: OAuthClient = { clientId: "id", authMethod: "none" };
    const lines = await debugLines(async () => {
      expect(await revokeToken({ metadata: as.metadata(), client, token: "TOKEN-SECRET-1", hint: "access_token" })).toBe(false);
      const down = as.metadata({ revocationEndpoint: "http://127.0.0.1:1/revoke" });
      expect(await revokeToken({ metadata: down, client, token: "TOKEN-SECRET-2", hint: "refresh_token" })).toBe(false);
    });
    expect(lines.join("\n")).toContain(`revoking the access_token at ${as.origin}/revoke was refused: 400 unsupported_token_type`);
    expect(lines.join("\n")).toContain("revoking the refresh_token at http://127.0.0.1:1/revoke failed: cannot reach");
    expect(lines.join("\n")).not.toContain("TOKEN-SECRET");
  });
});
