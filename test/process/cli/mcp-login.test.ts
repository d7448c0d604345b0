import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { catCode, runBinary, type RunResult } from "../../helpers/binary.ts";
import { browserEnv } from "../../helpers/browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { storedTokens } from "../../helpers/stored-tokens.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * `cat-code mcp login | logout | call | list` as processes against the OAuth fixture (an
 * authorization server and the MCP server it protects), the browser replaced by a fetch of the URL.
 */
const fixtures: OAuthServerProcess[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
});

async function setUp(flags: string[] = []) {
  const fixture = await spawnOAuthServer(flags);
  fixtures.push(fixture);
  const dir = tempDir("cat-code-login-");
  const home = join(dir, "home");
  const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
  const outputs: RunResult[] = [];
  // No browser unless a test gives one: a command that tried to open one would fail visibly.
  const cat = async (args: string[], env: Record<string, string> = { BROWSER: "/bin/false" }) => {
    const result = await runBinary([...args.slice(0, 2), "--mcp-config", config, ...args.slice(2)], { env: { CAT_CODE_HOME: home, ...env } });
    outputs.push(result);
    return result;
  };
  const stored = () => storedTokens(home, "linear", fixture.mcpUrl);
  /** Every secret the flow handled: the tokens we stored, and the codes, verifiers and refresh tokens sent to /token. */
  const secretsSeen = new Set<string>();
  const collectSecrets = () => {
    const tokens = stored();
    for (const value of [tokens?.accessToken, tokens?.refreshToken]) if (value) secretsSeen.add(value);
    for (const record of fixture.records()) {
      for (const name of ["code", "code_verifier", "refresh_token", "token"]) {
        const value = record.form?.[name] ?? (name === "code" ? record.query.code : undefined);
        if (value && value.length >= 8) secretsSeen.add(value);
      }
    }
  };
  const expectNoSecretPrinted = () => {
    collectSecrets();
    expect(secretsSeen.size).toBeGreaterThan(0);
    for (const { stdout, stderr } of outputs) for (const secret of secretsSeen) expect(`${stdout}${stderr}`).not.toContain(secret);
  };
  return { fixture, cat, stored, config, home, expectNoSecretPrinted };
}

const signedIn = (issuer: string) => new RegExp(`^signed in to linear \\(${issuer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\), 2 tool\\(s\\)$`);

describe("mcp login, then calls without a browser", () => {
  test("list shows NEEDS-AUTH; login signs in; call works; list is CONNECTED; nothing secret printed", async () => {
    const { fixture, cat, expectNoSecretPrinted } = await setUp();
    const before = await cat(["mcp", "list"]);
    expect(before.stdout).toMatch(/^linear\s+NEEDS-AUTH\s+run: cat-code mcp login --mcp-config \S+ linear/m);
    expect(before.exitCode).toBe(0);

    const login = await cat(["mcp", "login", "linear"], browserEnv());
    expect(login.stderr).toContain(`Sign in to linear in your browser: ${fixture.issuer}`);
    expect(login.stdout.trim()).toMatch(signedIn(fixture.issuer));
    expect(login.exitCode).toBe(0);

    const call = await cat(["mcp", "call", "linear", "echo", "text=hello"]);
    expect(call.stdout.trim()).toBe("hello");
    expect(call.exitCode).toBe(0);
    expect((await cat(["mcp", "list"])).stdout).toMatch(/^linear\s+CONNECTED\s+2 tool\(s\)/m);
    expectNoSecretPrinted();
  });

  test("an expired token is refreshed silently by the next call", async () => {
    const { fixture, cat, stored, expectNoSecretPrinted } = await setUp(["--token-ttl", "1"]);
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    const expiresAt = stored()?.expiresAt ?? 0;
    await waitFor(() => Date.now() > expiresAt, "the token to expire");
    const call = await cat(["mcp", "call", "linear", "echo", "text=still"]);
    expect(call.stderr).toBe("");
    expect(call.stdout.trim()).toBe("still");
    expect(fixture.records().some((record) => record.path === "/token" && record.form?.grant_type === "refresh_token")).toBe(true);
    expectNoSecretPrinted();
  });

  test("a refused refresh makes the server NEEDS-AUTH: exit 5 with the command", async () => {
    const { cat, stored } = await setUp(["--token-ttl", "1", "--refuse-refresh"]);
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    const expiresAt = stored()?.expiresAt ?? 0;
    await waitFor(() => Date.now() > expiresAt, "the token to expire");
    const call = await cat(["mcp", "call", "linear", "echo", "text=x"]);
    expect(call.stderr).toContain("needs you to sign in: run cat-code mcp login");
    expect(call.exitCode).toBe(5);
  });
});

describe("a sign-in that fails", () => {
  test("an authorization server that names another issuer: exit 3 with the reason, nothing stored", async () => {
    const { cat, stored } = await setUp(["--issuer", "wrong"]);
    const login = await cat(["mcp", "login", "linear"], browserEnv());
    expect(login.stderr).toMatch(/^error: signing in to 'linear' failed: .*issuer/m);
    expect(login.stderr.trim().split("\n")).toHaveLength(1);
    expect(login.exitCode).toBe(3);
    expect(stored()).toBeUndefined();
  });
});

describe("mcp logout", () => {
  test("forgets the tokens and revokes them where the server offers revocation", async () => {
    const { fixture, cat, stored, expectNoSecretPrinted } = await setUp(["--revocation"]);
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    const logout = await cat(["mcp", "logout", "linear"]);
    expect(logout.stdout.trim()).toBe(`signed out of linear (tokens revoked at ${fixture.issuer})`);
    expect(stored()).toBeUndefined();
    expect(fixture.records().filter((record) => record.path === "/revoke").length).toBeGreaterThan(0);
    expect((await cat(["mcp", "list"])).stdout).toMatch(/^linear\s+NEEDS-AUTH/m);
    expect((await cat(["mcp", "logout", "linear"])).stdout.trim()).toBe("no tokens stored for linear");
    expectNoSecretPrinted();
  });

  test("an authorization server that cannot be reached: the tokens are forgotten all the same, and it says so", async () => {
    const { fixture, cat, stored } = await setUp(["--revocation"]);
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    await fixture.stop();
    const logout = await cat(["mcp", "logout", "linear"]);
    expect(logout.stdout.trim()).toBe(`signed out of linear (revoking them at ${fixture.issuer} failed; the tokens were forgotten here)`);
    expect(logout.exitCode).toBe(0);
    expect(stored()).toBeUndefined();
  });

  test("without revocation it says the tokens were only forgotten here", async () => {
    const { fixture, cat, stored } = await setUp();
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    const logout = await cat(["mcp", "logout", "linear"]);
    expect(logout.stdout.trim()).toBe(`signed out of linear (${fixture.issuer} offers no revocation; the tokens were forgotten here)`);
    expect(stored()).toBeUndefined();
  });
});

describe("--login", () => {
  test("a server that asks for more scope: exit 5 without --login; with it, a sign-in there and then", async () => {
    const { cat, expectNoSecretPrinted } = await setUp(["--scopes-supported", "read admin", "--challenge-scope", "read", "--require-scope", "admin"]);
    expect((await cat(["mcp", "login", "linear"], browserEnv())).exitCode).toBe(0);
    const refused = await cat(["mcp", "call", "linear", "whoami"]);
    expect(refused.stderr).toContain("needs more access (scope admin)");
    expect(refused.exitCode).toBe(5);
    const stepUp = await cat(["mcp", "call", "--login", "linear", "whoami"], browserEnv());
    expect(stepUp.stderr).toContain("Sign in to linear in your browser:");
    expect(JSON.parse(stepUp.stdout).scopes).toContain("admin");
    expect(stepUp.exitCode).toBe(0);
    expectNoSecretPrinted();
  });

  test("mcp tools --login signs in and lists the server's tools", async () => {
    const { cat } = await setUp();
    const tools = await cat(["mcp", "tools", "--login", "linear"], browserEnv());
    expect(tools.stdout).toContain("mcp__linear__whoami");
    expect(tools.exitCode).toBe(0);
  });

  test("with no tokens, --login signs in before the call", async () => {
    const { cat } = await setUp();
    const call = await cat(["mcp", "call", "--login", "linear", "echo", "text=first"], browserEnv());
    expect(call.stdout.trim()).toBe("first");
    expect(call.exitCode).toBe(0);
  });
});

describe("ad-hoc servers", () => {
  test("login --url keeps each url's tokens to that url; logout --url forgets only its own", async () => {
    const first = await setUp();
    const second = await spawnOAuthServer();
    fixtures.push(second);
    const { cat } = first;
    const adHoc = (args: string[], url: string, env?: Record<string, string>) => runBinary([...args.slice(0, 2), "--url", url, ...args.slice(2)], { env: { CAT_CODE_HOME: first.home, ...(env ?? { BROWSER: "/bin/false" }) } });
    expect((await adHoc(["mcp", "login"], first.fixture.mcpUrl, browserEnv())).stdout.trim()).toMatch(/^signed in to http:\/\/127\.0\.0\.1:\d+\/mcp \(/);
    expect((await adHoc(["mcp", "login"], second.mcpUrl, browserEnv())).exitCode).toBe(0);
    // Each URL gets its own token: the first's still works, and was never sent to the second.
    expect((await adHoc(["mcp", "call", "whoami"], first.fixture.mcpUrl)).exitCode).toBe(0);
    expect((await adHoc(["mcp", "call", "whoami"], second.mcpUrl)).exitCode).toBe(0);
    expect(second.records().filter((record) => record.token !== undefined && record.token !== "valid")).toEqual([]);
    expect(first.fixture.records().filter((record) => record.token !== undefined && record.token !== "valid")).toEqual([]);
    expect((await adHoc(["mcp", "logout"], second.mcpUrl)).stdout).toContain("signed out of");
    expect((await adHoc(["mcp", "call", "whoami"], first.fixture.mcpUrl)).exitCode).toBe(0);
    expect((await adHoc(["mcp", "call", "whoami"], second.mcpUrl)).exitCode).toBe(5);
    void cat;
  });
});

describe("Ctrl-C during mcp login", () => {
  test("cancels the wait: exit 130, and the listener's port is free", async () => {
    const { config, home } = await setUp();
    const child = Bun.spawn([...catCode(), "mcp", "login", "--no-browser", "--mcp-config", config, "linear"], {
      env: { ...process.env, CAT_CODE_HOME: home, BROWSER: "/bin/false" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let stderr = "";
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
    })();
    await waitFor(() => /Sign in to linear in your browser: (\S+)/.test(stderr), () => `the URL line; stderr so far:\n${stderr}`);
    const url = new URL(/Sign in to linear in your browser: (\S+)/.exec(stderr)![1]!);
    const port = Number(new URL(url.searchParams.get("redirect_uri")!).port);
    expect(port).toBeGreaterThan(0);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    // The port is free: a server of ours can listen on it.
    const probe = Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response("") });
    probe.stop(true);
  });
});
