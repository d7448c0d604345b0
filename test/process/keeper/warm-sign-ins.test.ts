import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary, type RunResult } from "../../helpers/binary.ts";
import { browserEnv } from "../../helpers/browser.ts";
import { readKeeperInfo, stopKeepersOf } from "../../helpers/keeper-home.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { expireStoredTokens, storedTokens } from "../../helpers/stored-tokens.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * Sign-ins and the connection keeper, as processes: the keeper holds no tokens of its own, so what
 * `mcp login`, `mcp logout` and a cold command's refresh leave in credentials.json counts from the
 * very next request of a warm connection. The OAuth fixture rotates refresh tokens and, like
 * oidc-provider, revokes the whole grant when a rotated one is sent again (--detect-reuse).
 */
const fixtures: OAuthServerProcess[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) {
    await stopKeepersOf(home, () => runBinary(["mcp", "keeper", "stop"], { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined } }));
  }
  for (const fixture of fixtures.splice(0)) await fixture.stop();
});

async function setUp(flags: string[]) {
  const fixture = await spawnOAuthServer(flags);
  fixtures.push(fixture);
  const dir = tempDir("cat-code-warm-sign-in-");
  const home = join(dir, "home");
  homes.push(home);
  const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
  /** A command through the keeper (`cold`: without it), no browser unless given one. */
  const cat = (args: string[], options: { env?: Record<string, string>; cold?: boolean } = {}): Promise<RunResult> =>
    runBinary([...args.slice(0, 2), "--mcp-config", config, ...args.slice(2)], {
      env: { CAT_CODE_HOME: home, BROWSER: "/bin/false", CAT_CODE_NO_KEEPER: options.cold ? "1" : undefined, ...options.env },
    });
  const stored = () => storedTokens(home, "linear", fixture.mcpUrl);
  const refreshTokensSent = () =>
    fixture.records().filter((r) => r.path === "/token" && r.form?.grant_type === "refresh_token").map((r) => r.form?.refresh_token);
  /** The first warm call: the keeper starts and keeps the connection with the tokens of this sign-in. */
  const signInAndWarmUp = async () => {
    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);
    const warm = await cat(["mcp", "call", "linear", "echo", "text=warm"]);
    expect(warm.stdout.trim()).toBe("warm");
    const keeper = readKeeperInfo(home);
    expect(keeper).toBeDefined();
    return keeper!.pid;
  };
  /** The authorization server revokes the sign-in (RFC 7009, as the user would from another device): the refresh token, and with it the access tokens it gave. */
  const revokeAtServer = async () => {
    const tokens = stored()!;
    const registrations = JSON.parse(readFileSync(join(home, "credentials.json"), "utf8")).registrations ?? {};
    const clientId = tokens.clientId ?? (Object.values(registrations)[0] as { clientId: string }).clientId;
    const form = new URLSearchParams({ token: tokens.refreshToken!, token_type_hint: "refresh_token", client_id: clientId });
    const answer = await fetch(`${fixture.issuer}/revoke`, { method: "POST", body: form });
    expect(answer.status).toBe(200);
  };
  /** The tokens' lifetime passes, without a wait: the server refuses the access tokens it issued, and the stored one reads as expired. */
  const expireTokens = async () => {
    await fixture.expireAccessTokens();
    if (stored()) expireStoredTokens(home, [{ server: "linear", url: fixture.mcpUrl }]);
  };
  return { fixture, cat, stored, refreshTokensSent, signInAndWarmUp, revokeAtServer, expireTokens, home };
}

describe("a warm connection takes its token from the store at each request", () => {
  test("after mcp logout: the warm call is NEEDS-AUTH (exit 5), list says NEEDS-AUTH, and the keeper writes no token back", async () => {
    const { cat, stored, refreshTokensSent, signInAndWarmUp, expireTokens, home } = await setUp(["--detect-reuse"]);
    const keeperPid = await signInAndWarmUp();
    const forgotten = stored()!;
    const logout = await cat(["mcp", "logout", "linear"]);
    expect(logout.exitCode).toBe(0);
    expect(stored()).toBeUndefined();
    // Past the forgotten token's lifetime: a keeper holding it would refresh it and write the new tokens back.
    await expireTokens();

    const call = await cat(["mcp", "call", "linear", "echo", "text=after-logout"]);
    expect(call.stdout).toBe("");
    expect(call.stderr).toContain("needs you to sign in: run cat-code mcp login");
    expect(call.exitCode).toBe(5);
    const list = await cat(["mcp", "list"]);
    expect(list.stdout).toMatch(/^linear\s+NEEDS-AUTH/m);
    expect(list.exitCode).toBe(0);
    // The same keeper answered: the connection was dropped, not the keeper.
    expect(readKeeperInfo(home)?.pid).toBe(keeperPid);
    expect(stored()).toBeUndefined();
    expect(refreshTokensSent()).not.toContain(forgotten.refreshToken);
  });

  test("a sign-in the authorization server revoked while a command uses the warm connection: the next call is NEEDS-AUTH (exit 5) and retires it; the call under way finishes", async () => {
    const { cat, stored, revokeAtServer, signInAndWarmUp, home } = await setUp(["--revocation", "--hold-tool"]);
    const keeperPid = await signInAndWarmUp();
    const release = join(tempDir(), "release");
    const holding = cat(["mcp", "call", "linear", "hold", `file=${release}`]);
    await waitFor(() => existsSync(`${release}.held`), "the held call to reach the server");
    await revokeAtServer();
    // The tokens are still stored: only the server knows they no longer hold.
    expect(stored()).toBeDefined();

    // In use by the held call, the connection is reused as it is (no listing first): the call meets the refusal.
    const call = await cat(["mcp", "call", "linear", "echo", "text=after-revoke"]);
    expect(call.stdout).toBe("");
    expect(call.stderr).toContain("needs you to sign in: run cat-code mcp login");
    expect(call.exitCode).toBe(5);
    const status = await runBinary(["mcp", "keeper", "status"], { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined } });
    expect(status.stdout).toContain(`pid ${keeperPid}`);
    expect(status.stdout).not.toContain("linear");

    writeFileSync(release, "");
    const held = await holding;
    expect(held.stdout.trim()).toBe("released");
    expect(held.exitCode).toBe(0);
    const again = await cat(["mcp", "call", "linear", "echo", "text=again"]);
    expect(again.exitCode).toBe(5);
    expect((await cat(["mcp", "list"])).stdout).toMatch(/^linear\s+NEEDS-AUTH/m);
    expect(readKeeperInfo(home)?.pid).toBe(keeperPid);
  });

  test("mcp logout, then mcp login, before the next warm call: the keeper closed the old account's connection, and the call gets a new one", async () => {
    const { cat, signInAndWarmUp, home } = await setUp([]);
    const keeperPid = await signInAndWarmUp();
    expect((await cat(["mcp", "logout", "linear"])).exitCode).toBe(0);
    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);

    const call = await cat(["mcp", "call", "linear", "echo", "text=new-account"]);
    expect([call.exitCode, call.stdout, call.stderr]).toEqual([0, "new-account\n", ""]);
    const status = await runBinary(["mcp", "keeper", "status", "--json"], { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined } });
    const { pid, connections } = JSON.parse(status.stdout) as { pid: number; connections: Array<{ name: string; calls: number }> };
    // One call on it: not the connection of the warm-up call before the logout.
    expect([pid, connections.map((c) => [c.name, c.calls])]).toEqual([keeperPid, [["linear", 1]]]);
  });

  test("mcp login again (perhaps as another account) before the next warm call: the keeper closed the old sign-in's connection", async () => {
    const { cat, signInAndWarmUp, home } = await setUp([]);
    const keeperPid = await signInAndWarmUp();
    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);

    const call = await cat(["mcp", "call", "linear", "echo", "text=signed-in-again"]);
    expect([call.exitCode, call.stdout, call.stderr]).toEqual([0, "signed-in-again\n", ""]);
    const status = await runBinary(["mcp", "keeper", "status", "--json"], { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined } });
    const { pid, connections } = JSON.parse(status.stdout) as { pid: number; connections: Array<{ name: string; calls: number }> };
    // One call on it: not the connection of the warm-up call before the second sign-in.
    expect([pid, connections.map((c) => [c.name, c.calls])]).toEqual([keeperPid, [["linear", 1]]]);
  });

  test("mcp logout with no keeper running starts none", async () => {
    const { cat, home } = await setUp([]);
    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);
    expect((await cat(["mcp", "logout", "linear"])).exitCode).toBe(0);
    expect(readKeeperInfo(home)).toBeUndefined();
  });

  test("after a step-up mcp login: the next warm call goes through at once, with the same keeper", async () => {
    const { cat, home } = await setUp(["--scopes-supported", "read admin", "--challenge-scope", "read", "--require-scope", "admin"]);
    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);
    const refused = await cat(["mcp", "call", "linear", "whoami"]);
    expect(refused.stderr).toContain("needs more access (scope admin)");
    expect(refused.exitCode).toBe(5);
    const keeperPid = readKeeperInfo(home)?.pid;
    expect(keeperPid).toBeDefined();

    expect((await cat(["mcp", "login", "linear"], { env: browserEnv() })).exitCode).toBe(0);
    const call = await cat(["mcp", "call", "linear", "whoami"]);
    expect(call.stderr).toBe("");
    expect(JSON.parse(call.stdout).scopes).toContain("admin");
    expect(call.exitCode).toBe(0);
    expect(readKeeperInfo(home)?.pid).toBe(keeperPid);
  });

  test("a cold command rotates the refresh token; the warm call then uses the rotated one and the grant survives", async () => {
    const { cat, stored, refreshTokensSent, signInAndWarmUp, expireTokens } = await setUp(["--detect-reuse"]);
    await signInAndWarmUp();
    const held = stored()!;
    // The token the keeper connected with expires.
    await expireTokens();
    // `mcp resources` never goes through the keeper: it refreshes in its own process.
    const cold = await cat(["mcp", "resources"]);
    expect(cold.stderr).not.toContain("sign in");
    expect(refreshTokensSent()).toEqual([held.refreshToken]);
    expect(stored()?.refreshToken).not.toBe(held.refreshToken);

    const warm = await cat(["mcp", "call", "linear", "echo", "text=rotated"]);
    expect(warm.stderr).toBe("");
    expect(warm.stdout.trim()).toBe("rotated");
    expect(warm.exitCode).toBe(0);
    // Each refresh token went out once: a replay would have revoked the grant (and signed the user out).
    const sent = refreshTokensSent();
    expect(new Set(sent).size).toBe(sent.length);
    expect(stored()).toBeDefined();
  });
});
