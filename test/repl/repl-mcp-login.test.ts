import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { browserEnv } from "../helpers/browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../helpers/paths.ts";
import { childEnv, PipedCli, waitForServers } from "./cli-process.ts";

/** `/mcp login` in the REPL (piped stdin) against the OAuth fixture, the browser replaced by a fetch. */
let fixture: OAuthServerProcess | undefined;
let cli: PipedCli | undefined;
afterEach(async () => {
  cli?.kill();
  cli = undefined;
  await fixture?.stop();
  fixture = undefined;
});

async function startRepl(env: Record<string, string>): Promise<PipedCli> {
  fixture = await spawnOAuthServer(["--revocation"]);
  const dir = tempDir("cat-code-repl-login-");
  const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
  cli = new PipedCli(["--mcp-config", config], { cwd: dir, env: childEnv(join(dir, "home"), env) });
  return cli;
}

test("/mcp shows NEEDS-AUTH; /mcp login signs in without leaving; the tools join; /mcp logout", async () => {
  const repl = await startRepl(browserEnv());
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
  const repl = await startRepl({ BROWSER: "/bin/false" });
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
