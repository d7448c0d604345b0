import { afterEach, expect, test } from "bun:test";
import { CredentialsStore } from "../../../../src/mcp/auth/credentials-store.ts";
import type { AuthContext } from "../../../../src/mcp/auth/server-authorizer.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { signInToServer } from "../../../../src/mcp/pool/server-sign-in.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { listenerClosed } from "../../../helpers/browser.ts";
import { fetchingBrowser } from "../../../helpers/fetching-browser.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { type OAuthServerProcess, spawnOAuthServer } from "../../../helpers/oauth-server-process.ts";
import { tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

/**
 * The reconnect after `/mcp login`, lent a person: against the OAuth fixture with --move-issuer
 * (SEP-2352: the first request with the new token passes, then the server names a new
 * authorization server), through the pool's real HTTP transport and authorizer.
 */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function signedIn(timeout?: number): Promise<{ server: OAuthServerProcess; entry: ServerEntry; auth: AuthContext }> {
  const server = await spawnOAuthServer(["--move-issuer"]);
  opened.push({ close: () => server.stop() });
  const entry: ServerEntry = { name: "notes", scope: "user", source: "test", ok: true, config: { type: "http", url: server.mcpUrl, headers: {}, timeout } };
  const auth: AuthContext = { store: new CredentialsStore({ env: { CAT_CODE_HOME: tempDir("cat-code-auth-") } }), loginHint: (name) => `/mcp login ${name}` };
  expect(await signInToServer(entry, auth, fetchingBrowser())).toEqual({ kind: "signed-in", issuer: server.issuer });
  return { server, entry, auth };
}

function poolOf(entry: ServerEntry, auth: AuthContext): ServerPool {
  const pool = new ServerPool([entry], { auth, watchChanges: false });
  opened.push({ close: () => pool.closeAll() });
  return pool;
}

test("without a person the reconnect after a sign-in meets the move as NEEDS-AUTH", async () => {
  const { entry, auth } = await signedIn();
  const status = await poolOf(entry, auth).reconnect("notes");
  expect(status).toMatchObject({ state: "needs-auth", reason: expect.stringContaining("run /mcp login notes") });
});

test("a reconnect lent a person signs in where the server moved, and the connection keeps no browser after it", async () => {
  const { server, entry, auth } = await signedIn();
  const browser = fetchingBrowser();
  const pool = poolOf(entry, auth);
  const status = await pool.reconnect("notes", { interaction: browser });
  expect(status).toMatchObject({ state: "connected", tools: [{ name: "whoami" }, { name: "echo" }] });
  expect(browser.opened).toHaveLength(1);
  expect(browser.opened[0]!.startsWith(`${server.movesTo}/authorize?`)).toBe(true);
  expect(auth.store.tokens({ server: "notes", url: server.mcpUrl })?.issuer).toBe(server.movesTo!);
  expect(auth.store.registration(server.movesTo!)).toBeDefined();

  // Signed out elsewhere: the live connection's next request is NEEDS-AUTH, never a browser again.
  await auth.store.forgetTokens("notes");
  const error = await failure(pool.client("notes")!.callTool("echo", { text: "hi" }));
  expect(error.kind).toBe("needs-auth");
  expect(browser.opened).toHaveLength(1);
});

test("a sign-in still waiting for the browser when the reconnect gives up is ended: its port is free at once", async () => {
  // The request that met the move times out (2 s) while the browser has not come back.
  const { entry, auth } = await signedIn(2000);
  const urls: string[] = [];
  const status = await poolOf(entry, auth).reconnect("notes", { interaction: { openAuthorizationUrl: (url) => void urls.push(url) } });
  expect(status).toMatchObject({ state: "failed", reason: expect.stringContaining("timed out") });
  expect(urls).toHaveLength(1);
  const callback = new URL(urls[0]!).searchParams.get("redirect_uri")!;
  // Bounded well below the listener's own five minutes.
  await waitFor(() => listenerClosed(callback), "the waiting sign-in's listener to close", { timeoutMs: 5_000 });
}, 20_000);
