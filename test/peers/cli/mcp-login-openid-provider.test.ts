import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary, type RunResult } from "../../helpers/binary.ts";
import { browserEnv } from "../../helpers/browser.ts";
import { MACHINE_CLIENT, spawnOidcProvider, type OidcProviderProcess } from "../../helpers/oidc-provider-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { storedTokens } from "../../helpers/stored-tokens.ts";

/**
 * `cat-code mcp login | call | logout` as a user types them, against a real OpenID provider
 * (`oidc-provider`: refresh tokens only for `offline_access` granted with consent, JWT access
 * tokens for the MCP resource) in front of an SDK v1 MCP server that checks those JWTs. The browser
 * stand-in fills in the provider's login and consent pages as a person would.
 */
const fixtures: OidcProviderProcess[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
});

async function setUp(options: Parameters<typeof spawnOidcProvider>[0] = {}, oauth?: Record<string, unknown>) {
  const provider = await spawnOidcProvider(options);
  fixtures.push(provider);
  const dir = tempDir("cat-code-oidc-");
  const home = join(dir, "home");
  const browserLog = join(dir, "browser.jsonl");
  const config = writeConfig({ idp: { type: "http", url: provider.mcpUrl, ...(oauth ? { oauth } : {}) } }, dir);
  const outputs: RunResult[] = [];
  // TZ fixed: the "expires at HH:MM" a test expects is computed in the same zone.
  const cat = async (args: string[]) => {
    const env = { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: "1", TZ: "UTC", ...browserEnv({ log: browserLog }) };
    const result = await runBinary([...args.slice(0, 2), "--mcp-config", config, ...args.slice(2)], { env });
    outputs.push(result);
    return result;
  };
  const stored = () => storedTokens(home, "idp", provider.mcpUrl);
  const visited = () =>
    existsSync(browserLog)
      ? readFileSync(browserLog, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => new URL((JSON.parse(line) as { url: string }).url))
      : [];
  const expectNoTokenPrinted = () => {
    const tokens = stored();
    for (const secret of [tokens?.accessToken, tokens?.refreshToken].filter((value): value is string => !!value)) {
      for (const { stdout, stderr } of outputs) expect(`${stdout}${stderr}`).not.toContain(secret);
    }
  };
  /** Time passes without a sleep: the stored access token is made to have expired a minute ago. */
  const expireStoredToken = () => {
    const path = join(home, "credentials.json");
    const document = JSON.parse(readFileSync(path, "utf8"));
    const tokens = document.servers.idp.tokens[provider.mcpUrl];
    tokens.expiresAt = Date.now() - 60_000;
    tokens.savedAt = tokens.expiresAt - 20_000;
    writeFileSync(path, JSON.stringify(document), { mode: 0o600 });
  };
  return { provider, cat, stored, visited, expectNoTokenPrinted, expireStoredToken };
}

/** How the child (TZ=UTC) shows a moment: HH:MM today, else with the date. */
const hhmm = (epochMs: number) => {
  const [date, time] = [new Date(epochMs).toISOString().slice(0, 10), new Date(epochMs).toISOString().slice(11, 16)];
  return date === new Date().toISOString().slice(0, 10) ? time : `${date} ${time}`;
};

test("login at an OpenID provider asks for offline_access with prompt=consent, and gets a refresh token", async () => {
  const { cat, stored, visited, expectNoTokenPrinted } = await setUp();
  expect((await cat(["mcp", "call", "idp", "whoami"])).exitCode).toBe(5);
  const login = await cat(["mcp", "login", "idp"]);
  expect(login.exitCode).toBe(0);
  const authorization = visited()[0]!;
  expect(authorization.searchParams.get("scope")?.split(" ")).toContain("offline_access");
  expect(authorization.searchParams.get("prompt")).toBe("consent");
  // The consent page was shown and submitted: the person granted offline access.
  expect(visited().filter((url) => url.pathname.startsWith("/interaction/")).length).toBeGreaterThanOrEqual(2);
  expect(stored()?.refreshToken).toBeString();
  expect(login.stderr).not.toContain("gives no refresh token");
  const call = await cat(["mcp", "call", "idp", "whoami"]);
  expect(JSON.parse(call.stdout).scopes).toEqual(["mcp:read", "mcp:write"]);
  expect(call.exitCode).toBe(0);
  expectNoTokenPrinted();
}, 60_000);

test("the sign-in lasts past its access token: an expired token is refreshed by the next call, and the provider rotates the refresh token", async () => {
  const { cat, stored, visited, expireStoredToken, expectNoTokenPrinted } = await setUp();
  expect((await cat(["mcp", "login", "idp"])).exitCode).toBe(0);
  const first = stored()!;
  expireStoredToken();
  const pages = visited().length;
  const call = await cat(["mcp", "call", "idp", "whoami"]);
  expect(call.exitCode).toBe(0);
  expect(visited()).toHaveLength(pages);
  const renewed = stored()!;
  expect(renewed.accessToken).not.toBe(first.accessToken);
  expect(renewed.refreshToken).toBeString();
  expect(renewed.refreshToken).not.toBe(first.refreshToken);
  expectNoTokenPrinted();
}, 60_000);

test("a sign-in that yields no refresh token says so once, with the time the token expires", async () => {
  const { cat, stored, expectNoTokenPrinted } = await setUp({ noRefresh: true });
  const login = await cat(["mcp", "login", "idp"]);
  expect(login.exitCode).toBe(0);
  const tokens = stored()!;
  expect(tokens.refreshToken).toBeUndefined();
  const note = `this server gives no refresh token: you will be asked to sign in again when the token expires at ${hhmm(tokens.expiresAt!)}`;
  expect(login.stderr.split("\n").filter((line) => line === note)).toHaveLength(1);
  expect((await cat(["mcp", "call", "idp", "whoami"])).stderr).not.toContain("refresh token");
  expectNoTokenPrinted();
}, 60_000);

test("client_credentials never asks for offline_access: a provider that limits the client's scopes grants the token", async () => {
  const oauth = { grant: "client_credentials", clientId: MACHINE_CLIENT.id, clientSecret: MACHINE_CLIENT.secret };
  const { cat, stored } = await setUp({}, oauth);
  const call = await cat(["mcp", "call", "idp", "whoami"]);
  expect({ exitCode: call.exitCode, stderr: call.stderr }).toEqual({ exitCode: 0, stderr: "" });
  expect(JSON.parse(call.stdout).scopes).toEqual(["mcp:read", "mcp:write"]);
  expect(stored()?.scopes).not.toContain("offline_access");
  expect(call.stdout).not.toContain(MACHINE_CLIENT.secret);
}, 60_000);

test("logout revokes the refresh token and says the JWT access token, which the provider cannot revoke, expires on its own", async () => {
  const { cat, stored, provider } = await setUp();
  expect((await cat(["mcp", "login", "idp"])).exitCode).toBe(0);
  const { expiresAt } = stored()!;
  const logout = await cat(["mcp", "logout", "idp"]);
  expect(logout.stdout.trim()).toBe(
    `signed out of idp (refresh token revoked at ${provider.issuer}; the access token could not be revoked there and expires at ${hhmm(expiresAt!)}; it was forgotten here)`,
  );
  expect(logout.exitCode).toBe(0);
  expect(stored()).toBeUndefined();
}, 60_000);
