/**
 * The era probe's short window counts the server's silence, not OAuth: a token refresh (a stored
 * token that expired, or one the server refused) may take longer than the window, and a dual-era
 * server behind it must still be found modern. The OAuth fixture (its MCP server serves both eras)
 * answers each refresh only after --refresh-delay.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CredentialsStore } from "../../../../src/mcp/auth/credentials-store.ts";
import type { AuthContext } from "../../../../src/mcp/auth/server-authorizer.ts";
import { PROBE_WINDOW_MS } from "../../../../src/mcp/client/era-detection.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { authorizerFor } from "../../../../src/mcp/transport/create-transport.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { fetchingBrowser } from "../../../helpers/fetching-browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../../helpers/oauth-server-process.ts";
import { tempDir } from "../../../helpers/paths.ts";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** Each refresh is answered this late: well past the window. */
const REFRESH_DELAY_MS = PROBE_WINDOW_MS + 1500;

/** The fixture, slow to refresh, with a store signed in to it (before any MCP request: no probe yet). */
async function signedIn(flags: string[] = []): Promise<{ server: OAuthServerProcess; store: CredentialsStore }> {
  const server = await spawnOAuthServer(["--refresh-delay", String(REFRESH_DELAY_MS), ...flags]);
  opened.push({ close: () => server.stop() });
  const store = new CredentialsStore({ env: { CAT_CODE_HOME: tempDir("cat-code-auth-") } });
  const login = authorizerFor({ type: "http", url: server.mcpUrl, headers: {} }, { serverName: "notes", auth: { store, interaction: fetchingBrowser(), fresh: true } });
  expect(await login!.signInFirst()).toBe(server.issuer);
  return { server, store };
}

async function connect(url: string, auth: AuthContext): Promise<McpClient> {
  const authorizer = authorizerFor({ type: "http", url, headers: {} }, { serverName: "notes", auth });
  const client = new McpClient(new HttpTransport({ url, headers: {}, authorizer }), { name: "notes", timeoutMs: 20_000 });
  opened.push(client);
  await client.connect();
  return client;
}

/** What the client asked the MCP endpoint after the sign-in (the `skip` records before), in order, with the status. */
const mcpRequests = (server: OAuthServerProcess, skip: number) =>
  server
    .records()
    .slice(skip)
    .filter((r) => r.path === "/mcp" && r.method === "POST")
    .map((r) => `${r.rpcMethod} ${r.status}`);
const refreshes = (server: OAuthServerProcess) => server.records().filter((r) => r.path === "/token" && r.form?.grant_type === "refresh_token");

describe("a refresh slower than the probe's window", () => {
  test("of a stored token that expired: the server is found modern (2026-07-28), probed once", async () => {
    const { server, store } = await signedIn();
    const before = server.records().length;
    // Time runs on for the authorizer only: its clock says the hour-long token has expired.
    const client = await connect(server.mcpUrl, { store, now: () => Date.now() + 2 * 3600_000 });
    expect([client.era, client.protocolVersion]).toEqual(["modern", "2026-07-28"]);
    expect(refreshes(server).map((r) => r.status)).toEqual([200]);
    expect(mcpRequests(server, before)).toEqual(["server/discover 200"]);
  }, 30_000);

  test("of a token the server refused: the server is found modern (2026-07-28), the probe sent again only with the new token", async () => {
    const { server, store } = await signedIn(["--revocation"]);
    const key = { server: "notes", url: server.mcpUrl };
    const body = new URLSearchParams({ token: store.tokens(key)!.accessToken, client_id: store.registration(server.issuer)!.clientId });
    expect((await fetch(`${server.issuer}/revoke`, { method: "POST", body })).status).toBe(200);
    const before = server.records().length;
    const client = await connect(server.mcpUrl, { store });
    expect([client.era, client.protocolVersion]).toEqual(["modern", "2026-07-28"]);
    expect(refreshes(server).map((r) => r.status)).toEqual([200]);
    expect(mcpRequests(server, before)).toEqual(["server/discover 401", "server/discover 200"]);
  }, 30_000);
});
