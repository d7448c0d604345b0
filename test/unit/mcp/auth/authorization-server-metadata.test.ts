import { describe, expect, test } from "bun:test";
import { AuthError } from "../../../../src/mcp/auth/auth-error.ts";
import { discoverAuthorizationServer, metadataUrls } from "../../../../src/mcp/auth/authorization-server-metadata.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { documentServers } from "./document-server.ts";
import { authFailure } from "../../../helpers/oauth-endpoint.ts";

const { documents, asked } = documentServers();

const OAUTH = "/.well-known/oauth-authorization-server";
const OIDC = "/.well-known/openid-configuration";

/** A minimal valid document for `issuer`, endpoints under `prefix` of the issuer's origin. */
function asDocument(issuer: string, extra: object = {}): object {
  return { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ["code"], ...extra };
}

describe("metadataUrls", () => {
  test("an issuer with a path: RFC 8414 path insertion, OIDC path insertion, OIDC path appending", () => {
    expect(metadataUrls("https://auth.example.com/tenant1")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example.com/.well-known/openid-configuration/tenant1",
      "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
    expect(metadataUrls("https://auth.example.com/a/b/")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/a/b",
      "https://auth.example.com/.well-known/openid-configuration/a/b",
      "https://auth.example.com/a/b/.well-known/openid-configuration",
    ]);
  });

  test("an issuer without a path: the two root URLs", () => {
    const urls = ["https://auth.example.com/.well-known/oauth-authorization-server", "https://auth.example.com/.well-known/openid-configuration"];
    expect(metadataUrls("https://auth.example.com")).toEqual(urls);
    expect(metadataUrls("https://auth.example.com/")).toEqual(urls);
    expect(metadataUrls("http://127.0.0.1:8080")).toEqual(["http://127.0.0.1:8080/.well-known/oauth-authorization-server", "http://127.0.0.1:8080/.well-known/openid-configuration"]);
  });

  test("what is no issuer identifier is an AuthError: plain http elsewhere than this machine, a query, a fragment, no URL", () => {
    for (const [issuer, problem] of [
      ["http://auth.example.com", "uses plain http: on a host that is not this machine; OAuth needs https: there"],
      ["https://auth.example.com/t?tenant=1", "has a query"],
      ["https://auth.example.com/t#x", "has a fragment"],
      ["auth.example.com", "is not an absolute URL"],
    ] as const) {
      let error: unknown;
      try {
        metadataUrls(issuer);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AuthError);
      expect((error as Error).message).toContain(`${problem}, so it is no issuer identifier; cat-code does not sign in there`);
    }
  });
});

describe("discovery order against a real server", () => {
  test("a root issuer: RFC 8414 first, then OpenID Connect (auth/metadata-var1)", async () => {
    const server = documents((origin) => ({ [OIDC]: asDocument(origin) }));
    const metadata = await discoverAuthorizationServer(server.origin);
    expect(metadata.issuer).toBe(server.origin);
    expect(asked(server)).toEqual([OAUTH, OIDC]);
  });

  test("an issuer with a path found at the first URL: nothing else asked, never the root (auth/metadata-var2)", async () => {
    const server = documents((origin) => ({ [`${OAUTH}/tenant1`]: asDocument(`${origin}/tenant1`), [OAUTH]: asDocument(origin) }));
    await discoverAuthorizationServer(`${server.origin}/tenant1`);
    expect(asked(server)).toEqual([`${OAUTH}/tenant1`]);
  });

  test("an issuer with a path found only by OIDC appending: all three in order, never the root (auth/metadata-var3)", async () => {
    const server = documents((origin) => ({ [`/tenant1${OIDC}`]: asDocument(`${origin}/tenant1`), [OAUTH]: asDocument(origin) }));
    const metadata = await discoverAuthorizationServer(`${server.origin}/tenant1`);
    expect(metadata.authorizationEndpoint).toBe(`${server.origin}/tenant1/authorize`);
    expect(asked(server)).toEqual([`${OAUTH}/tenant1`, `${OIDC}/tenant1`, `/tenant1${OIDC}`]);
  });

  test("a document that is not JSON is skipped with a debug line and the next URL tried", async () => {
    const server = documents((origin) => ({ [OAUTH]: () => new Response("<!doctype html>"), [OIDC]: asDocument(origin) }));
    const lines = await debugLines(() => discoverAuthorizationServer(server.origin).then(() => undefined));
    expect(lines).toContain(`${server.origin}${OAUTH} answered HTTP 200 without a JSON object; not authorization server metadata`);
    expect(asked(server)).toEqual([OAUTH, OIDC]);
  });

  test("a 5xx is an AuthError naming the URL and status, and stops the walk", async () => {
    const server = documents((origin) => ({ [OAUTH]: () => new Response("", { status: 500 }), [OIDC]: asDocument(origin) }));
    const error = await authFailure(discoverAuthorizationServer(server.origin, { legacyFallback: true }));
    expect(error.message).toBe(`authorization server metadata at ${server.origin}${OAUTH} failed with HTTP 500: the server has a problem; try again later or tell its operator`);
    expect(asked(server)).toEqual([OAUTH]);
  });
});

describe("what a document must hold", () => {
  test("every field cat-code uses is read; unknown fields are ignored", async () => {
    const server = documents((origin) => ({
      [OAUTH]: asDocument(origin, {
        registration_endpoint: `${origin}/register`,
        revocation_endpoint: `${origin}/revoke`,
        scopes_supported: ["mcp:basic", "offline_access"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "none"],
        code_challenge_methods_supported: ["S256"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
        jwks_uri: `${origin}/jwks`,
        dpop_signing_alg_values_supported: ["ES256"],
        nested: { deep: [1, 2, 3] },
      }),
    }));
    const origin = server.origin;
    expect(await discoverAuthorizationServer(origin)).toEqual({
      issuer: origin,
      authorizationEndpoint: `${origin}/authorize`,
      tokenEndpoint: `${origin}/token`,
      registrationEndpoint: `${origin}/register`,
      revocationEndpoint: `${origin}/revoke`,
      scopesSupported: ["mcp:basic", "offline_access"],
      tokenEndpointAuthMethodsSupported: ["client_secret_post", "none"],
      codeChallengeMethodsSupported: ["S256"],
      grantTypesSupported: ["authorization_code", "refresh_token"],
      clientIdMetadataDocumentSupported: true,
      issParameterSupported: true,
      fallback: false,
    });
  });

  test("optional fields absent or null read as absent, flags as false", async () => {
    const server = documents((origin) => ({ [OAUTH]: asDocument(origin, { registration_endpoint: null, scopes_supported: null, client_id_metadata_document_supported: null }) }));
    expect(await discoverAuthorizationServer(server.origin)).toEqual({
      issuer: server.origin,
      authorizationEndpoint: `${server.origin}/authorize`,
      tokenEndpoint: `${server.origin}/token`,
      clientIdMetadataDocumentSupported: false,
      issParameterSupported: false,
      fallback: false,
    });
  });

  test("an issuer other than the one asked for is refused, naming both (auth/metadata-issuer-mismatch)", async () => {
    const server = documents(() => ({ [OAUTH]: asDocument("https://attacker.example.com") }));
    const error = await authFailure(discoverAuthorizationServer(server.origin));
    expect(error.message).toBe(
      `the authorization server metadata at ${server.origin}${OAUTH} names the issuer https://attacker.example.com, not ${server.origin} it was fetched for: cat-code refuses metadata that speaks for another server (tell the server's operator)`,
    );
    expect(asked(server)).toEqual([OAUTH]);
  });

  test("the issuer must match exactly: only the slash a parser adds to a pathless issuer is let through", async () => {
    const root = documents((origin) => ({ [OAUTH]: asDocument(origin) }));
    expect((await discoverAuthorizationServer(`${root.origin}/`)).issuer).toBe(root.origin);
    const tenant = documents((origin) => ({ [`${OAUTH}/t`]: asDocument(`${origin}/t`), [`${OAUTH}/T`]: asDocument(`${origin}/t`) }));
    expect((await authFailure(discoverAuthorizationServer(`${tenant.origin}/t/`))).message).toContain(`names the issuer ${tenant.origin}/t, not ${tenant.origin}/t/`);
    expect((await authFailure(discoverAuthorizationServer(`${tenant.origin}/T`))).message).toContain(`names the issuer ${tenant.origin}/t, not ${tenant.origin}/T`);
    const slashed = documents((origin) => ({ [OAUTH]: asDocument(`${origin}/`) }));
    expect((await authFailure(discoverAuthorizationServer(slashed.origin))).message).toContain(`names the issuer ${slashed.origin}/, not ${slashed.origin} it`);
  });

  test("metadata without PKCE S256 is refused when it lists its methods; absent methods are accepted", async () => {
    const plain = documents((origin) => ({ [OAUTH]: asDocument(origin, { code_challenge_methods_supported: ["plain"] }) }));
    expect((await authFailure(discoverAuthorizationServer(plain.origin))).message).toBe(
      `the authorization server ${plain.origin} does not support PKCE with S256 (its code_challenge_methods_supported lists plain); cat-code requires it to sign in safely`,
    );
    const none = documents((origin) => ({ [OAUTH]: asDocument(origin, { code_challenge_methods_supported: [] }) }));
    expect((await authFailure(discoverAuthorizationServer(none.origin))).message).toContain("lists nothing");
    const silent = documents((origin) => ({ [OAUTH]: asDocument(origin) }));
    expect((await discoverAuthorizationServer(silent.origin)).codeChallengeMethodsSupported).toBeUndefined();
  });

  test("invalid documents are refused with what is wrong", async () => {
    const cases: [(origin: string) => object, string][] = [
      [(origin) => ({ issuer: origin, token_endpoint: `${origin}/token` }), '"authorization_endpoint" is missing'],
      [(origin) => ({ issuer: origin, authorization_endpoint: 7, token_endpoint: `${origin}/token` }), '"authorization_endpoint" must be a string'],
      [(origin) => asDocument(origin, { code_challenge_methods_supported: "S256" }), '"code_challenge_methods_supported" must be a list of strings'],
      [(origin) => asDocument(origin, { authorization_response_iss_parameter_supported: "yes" }), '"authorization_response_iss_parameter_supported" must be true or false'],
      [(origin) => ({ authorization_endpoint: `${origin}/a`, token_endpoint: `${origin}/t` }), '"issuer" is missing'],
    ];
    for (const [make, problem] of cases) {
      const server = documents((origin) => ({ [OAUTH]: make(origin) }));
      expect((await authFailure(discoverAuthorizationServer(server.origin))).message).toBe(
        `the authorization server metadata at ${server.origin}${OAUTH} is invalid: ${problem}; the server publishes broken metadata (tell its operator)`,
      );
    }
  });

  test("endpoints must be https: (http: only on this machine)", async () => {
    const server = documents((origin) => ({ [OAUTH]: asDocument(origin, { token_endpoint: "http://tokens.example.com/token" }) }));
    expect((await authFailure(discoverAuthorizationServer(server.origin))).message).toBe(
      `the authorization server metadata at ${server.origin}${OAUTH} gives "token_endpoint" http://tokens.example.com/token, which uses plain http: on a host that is not this machine; OAuth needs https: there`,
    );
  });

  test("an issuer that is no issuer identifier is refused before any request", async () => {
    expect((await authFailure(discoverAuthorizationServer("http://auth.example.com"))).message).toContain("uses plain http: on a host that is not this machine");
  });
});

describe("no metadata at all", () => {
  test("is an AuthError naming the URLs tried", async () => {
    const server = documents(() => ({}));
    const error = await authFailure(discoverAuthorizationServer(`${server.origin}/t`));
    expect(error.message).toBe(
      `the authorization server ${server.origin}/t publishes no metadata (tried ${server.origin}${OAUTH}/t, ${server.origin}${OIDC}/t, ${server.origin}/t${OIDC}); cat-code cannot sign in to it (tell the server's operator)`,
    );
  });

  test("with legacyFallback: the 2025-03-26 defaults at the issuer's origin (auth/2025-03-26-oauth-endpoint-fallback)", async () => {
    const server = documents(() => ({}));
    expect(await discoverAuthorizationServer(`${server.origin}/mcp`, { legacyFallback: true })).toEqual({
      issuer: server.origin,
      authorizationEndpoint: `${server.origin}/authorize`,
      tokenEndpoint: `${server.origin}/token`,
      registrationEndpoint: `${server.origin}/register`,
      clientIdMetadataDocumentSupported: false,
      issParameterSupported: false,
      fallback: true,
    });
  });

  test("with legacyFallback, metadata at the root is still used, its endpoints wherever it puts them (auth/2025-03-26-oauth-metadata-backcompat)", async () => {
    const server = documents((origin) => ({ [OAUTH]: { issuer: origin, authorization_endpoint: `${origin}/oauth/authorize`, token_endpoint: `${origin}/oauth/token`, registration_endpoint: `${origin}/oauth/register` } }));
    const metadata = await discoverAuthorizationServer(server.origin, { legacyFallback: true });
    expect(metadata).toMatchObject({ fallback: false, authorizationEndpoint: `${server.origin}/oauth/authorize`, registrationEndpoint: `${server.origin}/oauth/register` });
    expect(asked(server)).toEqual([OAUTH]);
  });

  test("with legacyFallback, metadata that names no registration endpoint gets the default /register (conformance 0.1.16 backcompat); without, none", async () => {
    const server = documents((origin) => ({ [OAUTH]: { issuer: origin, authorization_endpoint: `${origin}/oauth/authorize`, token_endpoint: `${origin}/oauth/token` } }));
    expect((await discoverAuthorizationServer(server.origin, { legacyFallback: true })).registrationEndpoint).toBe(`${server.origin}/register`);
    expect((await discoverAuthorizationServer(server.origin)).registrationEndpoint).toBeUndefined();
  });
});

describe("an OpenID provider", () => {
  test("is told by the openid scope or the ID token algorithms OpenID discovery requires; a plain OAuth server is not one", async () => {
    const base = (origin: string) => ({ issuer: origin, authorization_endpoint: `${origin}/auth`, token_endpoint: `${origin}/token` });
    for (const [extra, openIdProvider] of [
      [{ scopes_supported: ["openid", "offline_access"] }, true],
      [{ id_token_signing_alg_values_supported: ["RS256"] }, true],
      [{ scopes_supported: ["mcp:basic", "offline_access"] }, undefined],
    ] as const) {
      const server = documents((origin) => ({ [OIDC]: { ...base(origin), ...extra } }));
      expect((await discoverAuthorizationServer(server.origin)).openIdProvider).toBe(openIdProvider);
    }
  });
});
