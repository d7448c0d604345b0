import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { CredentialsStore } from "../../../src/mcp/auth/credentials-store.ts";
import { browserEnv, heldBrowser, listenerClosed } from "../../helpers/browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { childEnv, PipedCli, waitForServers } from "../../helpers/cli-process.ts";

/** `/mcp login` in the REPL (piped stdin) against the OAuth fixture, the browser replaced by a fetch. */
let fixture: OAuthServerProcess | undefined;
let cli: PipedCli | undefined;
afterEach(async () => {
  cli?.kill();
  cli = undefined;
  await fixture?.stop();
  fixture = undefined;
});

async function startRepl(env: Record<string, string>, flags = ["--revocation"]): Promise<{ repl: PipedCli; home: string }> {
  fixture = await spawnOAuthServer(flags);
  const dir = tempDir("cat-code-repl-login-");
  const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
  const home = join(dir, "home");
  cli = new PipedCli(["--mcp-config", config], { cwd: dir, env: childEnv(home, env) });
  return { repl: cli, home };
}

test("/mcp shows NEEDS-AUTH; /mcp login signs in without leaving; the tools join; /mcp logout", async () => {
  const { repl } = await startRepl(browserEnv());
  let at = await waitForServers(repl);
  expect(repl.output).toContain("MCP: 0 server(s), 0 tool(s) registered (1 server needs sign-in: /mcp login linear)");
  repl.send("/mcp");
  at = await repl.waitFor("NEEDS-AUTH", at);
  at = await repl.waitFor("run: /mcp login linear", at);
  repl.send("/mcp login linear");
  at = await repl.waitFor("Sign in to linear in your browser: ", at);
  at = await repl.waitFor(`signed in to linear (${fixture!.issuer}), 2 tool(s)`, at);
  repl.send("/mcp tools");
  at = await repl.waitFor("mcp__linear__whoami", at);
  repl.send("/mcp logout linear");
  at = await repl.waitFor(`signed out of linear (tokens revoked at ${fixture!.issuer})`, at);
  repl.send("/mcp");
  at = await repl.waitFor("run: /mcp login linear", at);
  repl.send("/mcp tools");
  at = await repl.waitFor("No MCP tools.", at);
  repl.send("/mcp login nope");
  at = await repl.waitFor("No MCP server 'nope'", at);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);

test("Ctrl-C while waiting for the browser cancels the sign-in and returns to the prompt", async () => {
  const { repl } = await startRepl({ BROWSER: "/bin/false" });
  let at = await waitForServers(repl);
  repl.send("/mcp login linear");
  at = await repl.waitFor("Sign in to linear in your browser: ", at);
  repl.signal("SIGINT");
  at = await repl.waitFor("signing in to 'linear' failed: the sign-in was cancelled", at);
  repl.send("/mcp");
  at = await repl.waitFor("NEEDS-AUTH", at);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);

test("one /mcp login is enough when the server moves to a new authorization server on its first token (SEP-2352)", async () => {
  const { repl, home } = await startRepl(browserEnv(), ["--move-issuer"]);
  const { issuer, movesTo } = fixture!;
  expect(movesTo).toBeDefined();
  let at = await waitForServers(repl);
  repl.send("/mcp login linear");
  at = await repl.waitFor(`Sign in to linear in your browser: ${issuer}/authorize?`, at);
  // The reconnect meets the move and signs in at the new authorization server, with the same line.
  at = await repl.waitFor(`Sign in to linear in your browser: ${movesTo}/authorize?`, at);
  at = await repl.waitFor(`signed in to linear (${movesTo}), 2 tool(s)`, at);
  expect(repl.output).not.toContain("connecting failed");
  repl.send("/mcp");
  at = await repl.waitFor("CONNECTED", at);

  // Registered anew at the new issuer, the old client never shown to it.
  const store = new CredentialsStore({ env: { CAT_CODE_HOME: home } });
  const first = store.registration(issuer);
  const second = store.registration(movesTo!);
  expect(first).toBeDefined();
  expect(second).toBeDefined();
  expect(second!.clientId).not.toBe(first!.clientId);
  const atSecond = fixture!.records().filter((record) => record.at === "second");
  expect(atSecond.map((record) => `${record.method} ${record.path}`)).toContain("POST /register");
  expect(JSON.stringify(atSecond)).not.toContain(first!.clientId);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);

test("Ctrl-C during the sign-in at the new authorization server cancels it as it would the first one", async () => {
  const held = heldBrowser();
  const { repl } = await startRepl(held.env, ["--move-issuer"]);
  let at = await waitForServers(repl);
  repl.send("/mcp login linear");
  await waitFor(() => held.urls().length === 1, "the first authorization URL");
  // The first sign-in goes through; the one at the new authorization server is left waiting.
  expect(await held.follow(held.urls()[0]!)).toBe(0);
  at = await repl.waitFor(`Sign in to linear in your browser: ${fixture!.movesTo}/authorize?`, at);
  repl.signal("SIGINT");
  at = await repl.waitFor("signing in to 'linear' failed: the sign-in was cancelled", at);
  expect(repl.output).not.toContain("signed in to linear");
  // Its loopback listener is closed: the redirect URI's port is free again.
  const callback = new URL(held.urls()[1]!).searchParams.get("redirect_uri")!;
  await waitFor(() => listenerClosed(callback), "the second sign-in's listener to close");
  repl.send("/mcp");
  at = await repl.waitFor("linear  FAILED", at);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);
