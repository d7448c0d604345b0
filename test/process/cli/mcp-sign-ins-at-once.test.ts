import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary, type RunResult } from "../../helpers/binary.ts";
import { browserEnv, heldBrowser } from "../../helpers/browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { expireStoredTokens } from "../../helpers/stored-tokens.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * cat-code processes that sign in and refresh at the same time, against the OAuth fixture with two
 * entries (`a` and `b`) for its one MCP server, so they share one authorization server. What each
 * process finds in credentials.json must be what the others left there.
 */
const fixtures: OAuthServerProcess[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
});

async function setUp(flags: string[]) {
  const fixture = await spawnOAuthServer(flags);
  fixtures.push(fixture);
  const dir = tempDir("cat-code-at-once-");
  const home = join(dir, "home");
  const config = writeConfig({ a: { type: "http", url: fixture.mcpUrl }, b: { type: "http", url: fixture.mcpUrl } }, dir);
  const cat = (args: string[], env: Record<string, string> = { BROWSER: "/bin/false" }): Promise<RunResult> =>
    runBinary([...args.slice(0, 2), "--mcp-config", config, ...args.slice(2)], { env: { CAT_CODE_HOME: home, ...env } });
  const document = () => JSON.parse(readFileSync(join(home, "credentials.json"), "utf8"));
  const tokensOf = (server: string) => document().servers?.[server]?.tokens?.[fixture.mcpUrl] as { refreshToken?: string; expiresAt?: number; clientId?: string };
  const refreshes = () => fixture.records().filter((r) => r.path === "/token" && r.form?.grant_type === "refresh_token");
  /** The tokens' lifetime passes, without a wait: the server refuses the access tokens it issued, and the stored ones read as expired. */
  const expireTokens = async (servers: string[]) => {
    await fixture.expireAccessTokens();
    expireStoredTokens(home, servers.map((server) => ({ server, url: fixture.mcpUrl })));
  };
  return { fixture, cat, document, tokensOf, refreshes, expireTokens };
}

describe("at the same time", () => {
  test("two sign-ins to servers sharing an authorization server keep both client registrations, and each refreshes with its own", async () => {
    const { fixture, cat, document, tokensOf, refreshes, expireTokens } = await setUp([]);
    // a's sign-in registers a client and waits in the "browser", holding its redirect port.
    const held = heldBrowser();
    const first = cat(["mcp", "login", "a"], held.env);
    const [url] = await waitFor(() => held.urls().length > 0 && held.urls(), "a's sign-in to open the browser");
    // b's sign-in cannot have that port, so it registers a client of its own, and finishes first.
    const second = await cat(["mcp", "login", "b"], browserEnv());
    expect(second.exitCode).toBe(0);
    expect(await held.follow(url!)).toBe(0);
    expect((await first).exitCode).toBe(0);

    const registered = fixture.records().filter((r) => r.path === "/register" && r.status === 201);
    expect(registered).toHaveLength(2);
    const kept = [document().registrations[fixture.issuer]].flat().map((registration: { clientId: string }) => registration.clientId);
    expect(kept).toHaveLength(2);
    expect(new Set([tokensOf("a").clientId, tokensOf("b").clientId])).toEqual(new Set(kept));

    // Both tokens expire; each server's refresh must come from the client its tokens were issued to.
    await expireTokens(["a", "b"]);
    for (const server of ["a", "b"]) {
      const call = await cat(["mcp", "call", server, "echo", `text=${server}`]);
      expect(call.stderr).toBe("");
      expect(call.stdout.trim()).toBe(server);
    }
    expect(refreshes().map((r) => r.status)).toEqual([200, 200]);
  });

  test("two processes refreshing at once send the refresh token once; the second uses the first one's tokens", async () => {
    // Each refresh is answered a second late: the two processes' refreshes surely overlap.
    const { cat, tokensOf, refreshes, expireTokens } = await setUp(["--detect-reuse", "--refresh-delay", "1000"]);
    expect((await cat(["mcp", "login", "a"], browserEnv())).exitCode).toBe(0);
    const signedIn = tokensOf("a");
    await expireTokens(["a"]);

    const calls = await Promise.all([cat(["mcp", "call", "a", "echo", "text=one"]), cat(["mcp", "call", "a", "echo", "text=two"])]);
    expect(calls.map((call) => [call.exitCode, call.stdout.trim(), call.stderr])).toEqual([
      [0, "one", ""],
      [0, "two", ""],
    ]);
    const sent = refreshes().map((r) => r.form?.refresh_token);
    expect(sent[0]).toBe(signedIn.refreshToken);
    // A replay would have revoked the grant: each refresh token went out once.
    expect(new Set(sent).size).toBe(sent.length);
  });
});
