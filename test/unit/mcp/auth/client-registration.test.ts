import { describe, expect, test } from "bun:test";
import { DEFAULT_CLIENT_METADATA_URL, issuedClient, registerClient, resolveClient, type ClientRegistration } from "../../../../src/mcp/auth/client-registration.ts";
import { authFailure, oauthEndpoints } from "../../../helpers/oauth-endpoint.ts";

const endpoint = oauthEndpoints();
const REDIRECT = "http://127.0.0.1:5000/callback";
const registered = (extra: Record<string, unknown> = {}) => () => Response.json({ client_id: "dcr-client-1", redirect_uris: [REDIRECT], ...extra }, { status: 201 });

describe("dynamic client registration (RFC 7591)", () => {
  test("registers a native public client with its loopback redirect", async () => {
    const as = endpoint(registered());
    const registration = await registerClient(as.metadata(), [REDIRECT]);
    const [request] = as.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/register");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(request!.body)).toEqual({
      client_name: "cat-code",
      application_type: "native",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    expect(registration).toEqual({ clientId: "dcr-client-1", authMethod: "none", redirectUris: [REDIRECT], issuer: as.origin });
  });

  test("takes the secret and the method the server answers with", async () => {
    const as = endpoint(registered({ client_secret: "dcr-secret", token_endpoint_auth_method: "client_secret_post" }));
    const registration = await registerClient(as.metadata(), [REDIRECT]);
    expect(registration).toMatchObject({ clientId: "dcr-client-1", clientSecret: "dcr-secret", authMethod: "client_secret_post" });
  });

  test("a secret without a method: basic by default, or what the server lists", async () => {
    const as = endpoint(registered({ client_secret: "dcr-secret" }));
    expect((await registerClient(as.metadata(), [REDIRECT])).authMethod).toBe("client_secret_basic");
    expect((await registerClient(as.metadata({ tokenEndpointAuthMethodsSupported: ["client_secret_post"] }), [REDIRECT])).authMethod).toBe("client_secret_post");
  });

  test("an answer without client_id is refused", async () => {
    const as = endpoint(() => Response.json({ client_secret: "SECRET-NOT-SHOWN" }, { status: 201 }));
    const error = await authFailure(registerClient(as.metadata(), [REDIRECT]));
    expect(error.message).toBe(
      `registering cat-code as a client at ${as.origin}/register failed: its answer has no usable client_id (RFC 7591 §3.2.1: a non-empty string of at most 4096 characters)`,
    );
  });

  test("an answer that is not JSON, or a method cat-code cannot do, is refused", async () => {
    const html = endpoint(() => new Response("<html>", { status: 201 }));
    expect((await authFailure(registerClient(html.metadata(), [REDIRECT]))).message).toBe(`registering cat-code as a client at ${html.origin}/register failed: its answer is not a JSON object`);
    const jwt = endpoint(registered({ token_endpoint_auth_method: "private_key_jwt" }));
    expect((await authFailure(registerClient(jwt.metadata(), [REDIRECT]))).message).toContain(`authentication "private_key_jwt", which cat-code does not do`);
  });

  test("a refusal names the server's error and its cleaned words", async () => {
    const as = endpoint(() => Response.json({ error: "invalid_redirect_uri", error_description: "loopback\nnot allowed" }, { status: 400 }));
    const error = await authFailure(registerClient(as.metadata(), [REDIRECT]));
    expect(error.message).toBe(
      `registering cat-code as a client at ${as.origin}/register failed: the authorization server answered invalid_redirect_uri (loopback not allowed). Or register a client there by hand and set "oauth.clientId" in the server's entry`,
    );
    expect(error.oauthError).toBe("invalid_redirect_uri");
  });

  test("no registration endpoint: tells to set oauth.clientId in the entry", async () => {
    const as = endpoint(registered());
    const error = await authFailure(registerClient(as.metadata({ registrationEndpoint: undefined }), [REDIRECT]));
    expect(error.message).toBe(
      `the authorization server ${as.origin}/ offers no client registration, so cat-code needs a client id registered there by hand: set "oauth.clientId" (and "oauth.clientSecret" if it has one) in the server's entry, e.g. cat-code mcp add --transport http <name> <url> --client-id <id>`,
    );
    expect(as.requests).toHaveLength(0);
  });
});

describe("which client identity a sign-in uses", () => {
  const stored = (issuer: string, redirectUris = [REDIRECT]): ClientRegistration => ({ clientId: "stored-1", clientSecret: "stored-secret", authMethod: "client_secret_post", redirectUris, issuer });

  test("a configured client id wins over CIMD, a stored registration and DCR", async () => {
    const as = endpoint(registered());
    const metadata = as.metadata({ clientIdMetadataDocumentSupported: true, tokenEndpointAuthMethodsSupported: ["client_secret_basic"] });
    const result = await resolveClient({ metadata, configured: { clientId: "pre-registered-client", clientSecret: "pre-registered-secret" }, clientMetadataUrl: DEFAULT_CLIENT_METADATA_URL, stored: stored(as.origin), redirectUri: REDIRECT });
    expect(result).toEqual({ client: { clientId: "pre-registered-client", clientSecret: "pre-registered-secret", authMethod: "client_secret_basic" } });
    expect(as.requests).toHaveLength(0);
  });

  test("CIMD when advertised and a URL is given: the client id is exactly that URL (conformance auth/basic-cimd)", async () => {
    const as = endpoint(registered());
    const url = "https://conformance-test.local/client-metadata.json";
    const result = await resolveClient({ metadata: as.metadata({ clientIdMetadataDocumentSupported: true }), clientMetadataUrl: url, stored: stored(as.origin), redirectUri: REDIRECT });
    expect(result).toEqual({ client: { clientId: url, authMethod: "none" } });
    expect(as.requests).toHaveLength(0);
  });

  test("CIMD not advertised: the URL is not used", async () => {
    const as = endpoint(registered());
    const result = await resolveClient({ metadata: as.metadata(), clientMetadataUrl: DEFAULT_CLIENT_METADATA_URL, redirectUri: REDIRECT });
    expect(result.client.clientId).toBe("dcr-client-1");
  });

  test("CIMD advertised and no URL given: cat-code's own document, before a stored registration and before registering (the spec's order)", async () => {
    const as = endpoint(registered());
    const own = { client: { clientId: DEFAULT_CLIENT_METADATA_URL, authMethod: "none" as const } };
    expect(await resolveClient({ metadata: as.metadata({ clientIdMetadataDocumentSupported: true }), stored: stored(as.origin), redirectUri: REDIRECT })).toEqual(own);
    const noRegistration = as.metadata({ clientIdMetadataDocumentSupported: true, registrationEndpoint: undefined });
    expect(await resolveClient({ metadata: noRegistration, redirectUri: REDIRECT })).toEqual(own);
    expect(as.requests).toHaveLength(0);
  });

  test("a stored registration is reused when it holds the current redirect URI", async () => {
    const as = endpoint(registered());
    const result = await resolveClient({ metadata: as.metadata(), stored: stored(as.origin), redirectUri: REDIRECT });
    expect(result).toEqual({ client: { clientId: "stored-1", clientSecret: "stored-secret", authMethod: "client_secret_post" } });
    expect(as.requests).toHaveLength(0);
  });

  test("a stored registration for another redirect URI or another issuer is not reused: a new one is made and returned for storing", async () => {
    const as = endpoint(registered());
    for (const old of [stored(as.origin, ["http://127.0.0.1:6000/callback"]), stored("https://other.example.com")]) {
      const result = await resolveClient({ metadata: as.metadata(), stored: old, redirectUri: REDIRECT });
      expect(result.client).toEqual({ clientId: "dcr-client-1", authMethod: "none" });
      expect(result.registered).toEqual({ clientId: "dcr-client-1", authMethod: "none", redirectUris: [REDIRECT], issuer: as.origin });
    }
    expect(as.requests).toHaveLength(2);
  });
});

describe("which client a refresh or revocation uses: the one the tokens were issued to", () => {
  // An authorization server that offers CIMD and holds a registration of cat-code: a sign-in now would use the metadata URL.
  const setUp = () => {
    const metadata = endpoint(registered()).metadata({ clientIdMetadataDocumentSupported: true });
    const stored: ClientRegistration = { clientId: "dyn-123", clientSecret: "dyn-secret", authMethod: "client_secret_post", redirectUris: [REDIRECT], issuer: metadata.issuer };
    return { metadata, stored, choice: { metadata, configured: { clientId: "pre-registered" }, clientMetadataUrl: "https://cat.example/client.json", stored } };
  };

  test("each kind by its id, whatever a sign-in would choose now", () => {
    const { metadata, choice } = setUp();
    expect(issuedClient(choice, "dyn-123")).toEqual({ clientId: "dyn-123", clientSecret: "dyn-secret", authMethod: "client_secret_post" });
    expect(issuedClient(choice, "pre-registered")).toEqual({ clientId: "pre-registered", authMethod: "none" });
    expect(issuedClient(choice, "https://cat.example/client.json")).toEqual({ clientId: "https://cat.example/client.json", authMethod: "none" });
    // cat-code's own document, though the entry names another URL now, and the server no longer advertises CIMD.
    expect(issuedClient({ ...choice, metadata: { ...metadata, clientIdMetadataDocumentSupported: false } }, DEFAULT_CLIENT_METADATA_URL)?.clientId).toBe(DEFAULT_CLIENT_METADATA_URL);
  });

  test("a client cat-code no longer knows is none, never another one in its place", () => {
    const { stored, choice } = setUp();
    expect(issuedClient(choice, "dyn-gone")).toBeUndefined();
    expect(issuedClient({ ...choice, stored: { ...stored, issuer: "https://other.example" } }, "dyn-123")).toBeUndefined();
  });
});

describe("cat-code's Client ID Metadata Document", () => {
  test("docs/oauth-client-metadata.json is the document DEFAULT_CLIENT_METADATA_URL serves", async () => {
    const document = await Bun.file(new URL("../../../../docs/oauth-client-metadata.json", import.meta.url)).json();
    // The project's GitHub Pages site (github.com/cat-code/cat-code): served 200 as JSON, no redirect.
    expect(DEFAULT_CLIENT_METADATA_URL).toBe("https://cat-code.github.io/cat-code/oauth-client-metadata.json");
    expect(document).toEqual({
      // CIMD requires the document's client_id to be its own URL.
      client_id: DEFAULT_CLIENT_METADATA_URL,
      client_name: "cat-code",
      client_uri: "https://github.com/cat-code/cat-code",
      application_type: "native",
      // The loopback IP literal cat-code's listener binds; any port matches it (RFC 8252 §7.3).
      redirect_uris: ["http://127.0.0.1/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
  });

  test("the pages workflow publishes that file at that URL", async () => {
    const workflow = await Bun.file(new URL("../../../../.github/workflows/pages.yml", import.meta.url)).text();
    const { pathname } = new URL(DEFAULT_CLIENT_METADATA_URL);
    // A project site is served under /<repository>/: the file lands at the site's root.
    expect(pathname).toBe("/cat-code/oauth-client-metadata.json");
    expect(workflow).toContain("cp docs/oauth-client-metadata.json site/oauth-client-metadata.json");
    expect(workflow).toContain(DEFAULT_CLIENT_METADATA_URL);
  });
});
