import { afterEach, describe, expect, test } from "bun:test";
import { CredentialsStore } from "../../../src/mcp/auth/credentials-store.ts";
import type { AuthContext } from "../../../src/mcp/auth/server-authorizer.ts";
import type { SignInInteraction } from "../../../src/mcp/auth/sign-in.ts";
import { McpClient } from "../../../src/mcp/client/mcp-client.ts";
import type { OAuthConfig } from "../../../src/mcp/config/server-config.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { authorizerFor } from "../../../src/mcp/transport/create-transport.ts";
import { HttpTransport } from "../../../src/mcp/transport/http-transport.ts";
import { type OAuthServerProcess, spawnOAuthServer } from "../../helpers/oauth-server-process.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * The authorizer between cat-code's HTTP transport and our own authorization server fixture (a
 * separate process): sign-in with a "browser" that follows the redirects by fetch, stored tokens
 * reused, refresh, NEEDS-AUTH, step-up, client credentials. What the fixture recorded is what the
 * client sent.
 */

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function fixture(flags: string[] = []): Promise<OAuthServerProcess> {
  const server = await spawnOAuthServer(flags);
  opened.push({ close: () => server.stop() });
  return server;
}

/** The browser replaced by fetch: GET the URL and follow redirects, as far as the loopback listener. */
function fetchingBrowser(): SignInInteraction & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async openAuthorizationUrl(url) {
      opened.push(url);
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        const response = await fetch(next, { redirect: "manual" });
        await response.arrayBuffer();
        const location = response.headers.get("location");
        if (!location) return;
        next = new URL(location, next);
      }
    },
  };
}

function storeIn(home = tempDir("cat-code-auth-")): CredentialsStore {
  return new CredentialsStore({ env: { CAT_CODE_HOME: home } });
}

async function connect(url: string, auth: AuthContext, oauth?: OAuthConfig, name = "notes"): Promise<McpClient> {
  const authorizer = authorizerFor({ type: "http", url, headers: {}, oauth }, { serverName: name, auth });
  const client = new McpClient(new HttpTransport({ url, headers: {}, authorizer }), { name, timeoutMs: 20_000 });
  opened.push(client);
  await client.connect();
  return client;
}

async function failure(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const authorizeRequests = (server: OAuthServerProcess) => server.records().filter((r) => r.path === "/authorize");
const tokenGrants = (server: OAuthServerProcess) => server.records().filter((r) => r.path === "/token").map((r) => r.form?.grant_type);

describe("signing in", () => {
  test("without a person to sign in, a server that asks is NEEDS-AUTH with the command to run", async () => {
    const server = await fixture();
    const error = await failure(connect(server.mcpUrl, { store: storeIn() }));
    expect(error.needsAuth).toBe(true);
    expect(error.status).toBe(401);
    expect(error.message).toBe(`'notes' (${server.mcpUrl}) needs you to sign in: run cat-code mcp login notes`);
    expect(authorizeRequests(server)).toEqual([]);
  });

  test("the whole flow: discovery, registration, PKCE with state and resource, the code exchanged; then tokens are reused with no browser", async () => {
    const server = await fixture(["--scopes-supported", "notes:read notes:write"]);
    const store = storeIn();
    const browser = fetchingBrowser();
    const client = await connect(server.mcpUrl, { store, interaction: browser });
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(["echo", "whoami"]);

    expect(browser.opened).toHaveLength(1);
    const [authorize] = authorizeRequests(server);
    expect(authorize?.query).toMatchObject({ response_type: "code", code_challenge_method: "S256", resource: server.mcpUrl, scope: "notes:read notes:write" });
    expect(authorize?.query.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const exchange = server.records().find((r) => r.path === "/token");
    expect(exchange?.form).toMatchObject({ grant_type: "authorization_code", resource: server.mcpUrl, redirect_uri: authorize?.query.redirect_uri });
    expect(exchange?.form?.code_verifier).toBeString();
    expect(store.tokens({ server: "notes", url: server.mcpUrl })?.issuer).toBe(server.issuer);
    expect(store.registration(server.issuer)?.clientId).toBeString();

    // A second process-like client: the stored token goes along, the fixture sees it valid, no browser.
    const before = server.records().length;
    const again = await connect(server.mcpUrl, { store: storeIn(dirOf(store)) });
    await again.listTools();
    const later = server.records().slice(before);
    expect(later.some((r) => r.path === "/authorize" || r.path === "/token")).toBe(false);
    expect(later.filter((r) => r.path === "/mcp").every((r) => r.token === "valid")).toBe(true);
  });

  test("the token goes only to the url it was issued for: another url of the same entry asks anew", async () => {
    const first = await fixture();
    const second = await fixture();
    const store = storeIn();
    await connect(first.mcpUrl, { store, interaction: fetchingBrowser() });
    const error = await failure(connect(second.mcpUrl, { store }));
    expect(error.needsAuth).toBe(true);
    expect(second.records().some((r) => r.authorization !== undefined)).toBe(false);
  });

  test("an expired token is refreshed without a person, and the new tokens are stored", async () => {
    const server = await fixture(["--rotate-refresh"]);
    const store = storeIn();
    await connect(server.mcpUrl, { store, interaction: fetchingBrowser() });
    const issued = store.tokens({ server: "notes", url: server.mcpUrl })!;
    // Time runs on for the authorizer only: its clock says the hour-long token has expired.
    const client = await connect(server.mcpUrl, { store, now: () => Date.now() + 2 * 3600_000 });
    expect((await client.listTools()).length).toBe(2);
    expect(tokenGrants(server)).toEqual(["authorization_code", "refresh_token"]);
    const renewed = store.tokens({ server: "notes", url: server.mcpUrl })!;
    expect(renewed.accessToken).not.toBe(issued.accessToken);
    expect(renewed.refreshToken).not.toBe(issued.refreshToken);
  });

  test("a token the server refuses is refreshed once and the request sent again", async () => {
    const server = await fixture(["--revocation"]);
    const store = storeIn();
    await connect(server.mcpUrl, { store, interaction: fetchingBrowser() });
    // The stored token looks good to the client; the server no longer takes it.
    const key = { server: "notes", url: server.mcpUrl };
    const body = new URLSearchParams({ token: store.tokens(key)!.accessToken, client_id: store.registration(server.issuer)!.clientId });
    expect((await fetch(`${server.issuer}/revoke`, { method: "POST", body })).status).toBe(200);
    await waitUntilRefused(server, store.tokens(key)!.accessToken);
    const client = await connect(server.mcpUrl, { store });
    expect((await client.listTools()).length).toBe(2);
    expect(tokenGrants(server)).toEqual(["authorization_code", "refresh_token"]);
  });

  test("a refresh the authorization server refuses makes the server NEEDS-AUTH", async () => {
    const server = await fixture(["--token-ttl", "1", "--refuse-refresh"]);
    const store = storeIn();
    await connect(server.mcpUrl, { store, interaction: fetchingBrowser() });
    await waitUntilRefused(server, store.tokens({ server: "notes", url: server.mcpUrl })!.accessToken);
    const error = await failure(connect(server.mcpUrl, { store }));
    expect(error.needsAuth).toBe(true);
    expect(error.message).toContain("run cat-code mcp login notes");
    expect(tokenGrants(server)).toEqual(["authorization_code", "refresh_token"]);
  });
});

/** Waits until the fixture refuses `token` (its one-second lifetime is over), asking it directly. */
async function waitUntilRefused(server: OAuthServerProcess, token: string): Promise<void> {
  await waitFor(async () => {
    const response = await fetch(server.mcpUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    await response.arrayBuffer();
    return response.status === 401;
  }, "the fixture to refuse the token");
}

function dirOf(store: CredentialsStore): string {
  return store.path.slice(0, store.path.lastIndexOf("/"));
}
