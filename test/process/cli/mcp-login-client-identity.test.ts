import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { DEFAULT_CLIENT_METADATA_URL } from "../../../src/mcp/auth/client-registration.ts";
import { runBinary } from "../../helpers/binary.ts";
import { browserEnv } from "../../helpers/browser.ts";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";

/**
 * Which client identity `cat-code mcp login` presents, typed as a user would against the OAuth
 * fixture: the spec's order is pre-registered, then a Client ID Metadata Document, then dynamic
 * registration; a 2025-03-26 server registers at its default /register.
 */
const fixtures: OAuthServerProcess[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
});

async function login(flags: string[]) {
  const fixture = await spawnOAuthServer(flags);
  fixtures.push(fixture);
  const dir = tempDir("cat-code-client-identity-");
  const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
  const env = { CAT_CODE_HOME: join(dir, "home"), CAT_CODE_NO_KEEPER: "1", ...browserEnv() };
  const result = await runBinary(["mcp", "login", "--mcp-config", config, "linear"], { env });
  const paths = fixture.records().map((record) => `${record.method} ${record.path}`);
  const clientIds = fixture.records().flatMap((record) => (record.path === "/authorize" ? [record.query.client_id] : []));
  return { fixture, result, paths, clientIds };
}

test("an authorization server that takes Client ID Metadata Documents gets cat-code's own as the client id, and no registration, though it offers one", async () => {
  const { result, paths, clientIds } = await login(["--cimd"]);
  expect(result.exitCode).toBe(0);
  expect(clientIds).toEqual([DEFAULT_CLIENT_METADATA_URL]);
  expect(paths).not.toContain("POST /register");
});

test("an authorization server without Client ID Metadata Documents: cat-code registers", async () => {
  const { result, paths, clientIds } = await login([]);
  expect(result.exitCode).toBe(0);
  expect(paths).toContain("POST /register");
  expect(clientIds).toEqual([expect.stringMatching(/^client-/)]);
});

test("a 2025-03-26 server whose metadata names no registration endpoint: cat-code registers at the default /register", async () => {
  const { fixture, result, paths } = await login(["--no-prm", "--unlisted-registration"]);
  expect(result.exitCode).toBe(0);
  expect(result.stdout.trim()).toBe(`signed in to linear (${fixture.issuer}), 2 tool(s)`);
  expect(paths.filter((path) => /\/(register|authorize|token)$/.test(path))).toEqual(["POST /register", "GET /authorize", "POST /token"]);
});

test("a server whose metadata names no registration endpoint and has a protected resource metadata document: no guess at /register", async () => {
  const { result, paths } = await login(["--unlisted-registration"]);
  expect(result.exitCode).toBe(3);
  expect(result.stderr).toContain(`offers no client registration, so cat-code needs a client id registered there by hand: set "oauth.clientId"`);
  expect(paths).not.toContain("POST /register");
});
