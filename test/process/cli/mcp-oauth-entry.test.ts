import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CredentialsStore } from "../../../src/mcp/auth/credentials-store.ts";
import { isWellKnownSecret } from "../../../src/system/own-secrets.ts";
import { runBinary, type RunResult } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

/** This machine's own well-known secret variables left out, so `mcp get` reads the same everywhere. */
const WITHOUT_MACHINE_SECRETS = Object.fromEntries(Object.keys(process.env).filter(isWellKnownSecret).map((name) => [name, undefined]));
/** Every secret of these tests holds this, so one grep of the output finds any of them. */
const SECRET = "SeCrEt";
/** Nothing listens on port 9 (discard): the server fails at once, and get still shows the entry. */
const URL_ = "http://127.0.0.1:9/mcp";

function workspace() {
  const home = tempDir("cat-code-home-");
  const project = tempDir("cat-code-project-");
  const userFile = join(home, "mcp.json");
  const projectFile = join(project, ".mcp.json");
  // TZ fixed: mcp get shows a token's expiry on the local clock.
  const cli = (...args: string[]): Promise<RunResult> =>
    runBinary(["mcp", ...args], { cwd: project, env: { CAT_CODE_HOME: home, LINEAR_SECRET: `${SECRET}-from-env`, TZ: "UTC", ...WITHOUT_MACHINE_SECRETS } });
  const write = (path: string, servers: Record<string, unknown>) => writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  const entries = (path: string) => JSON.parse(readFileSync(path, "utf8")).mcpServers;
  const store = new CredentialsStore({ env: { CAT_CODE_HOME: home } });
  return { home, project, userFile, projectFile, cli, write, entries, store };
}

function expectNoSecret(...outputs: string[]) {
  for (const output of outputs) expect(output).not.toContain(SECRET);
}

describe("cat-code mcp add: the oauth flags", () => {
  test("--client-id, --client-secret, --callback-port and --oauth-scope (repeated, space-separated) write the oauth block", async () => {
    const w = workspace();
    const { exitCode, stdout, stderr } = await w.cli(
      "add", "--transport", "http", "linear", URL_,
      "--client-id", "cat-code-cli", "--client-secret", "${LINEAR_SECRET}", "--callback-port", "8765",
      "--oauth-scope", "read", "--oauth-scope", "write  admin read",
    );
    expect([exitCode, stderr]).toEqual([0, ""]);
    expect(stdout).toBe(`Added http server 'linear' to ${w.userFile} (user scope)\n`);
    expect(w.entries(w.userFile)).toEqual({
      linear: { type: "http", url: URL_, oauth: { clientId: "cat-code-cli", clientSecret: "${LINEAR_SECRET}", scopes: ["read", "write", "admin"], callbackPort: 8765 } },
    });
  });

  test("no oauth flag, no oauth block; --client-id alone is enough", async () => {
    const w = workspace();
    await w.cli("add", "-t", "http", "plain", URL_);
    await w.cli("add", "-t", "http", "byid", URL_, "--client-id=cat-code-cli");
    expect(w.entries(w.userFile)).toEqual({
      plain: { type: "http", url: URL_ },
      byid: { type: "http", url: URL_, oauth: { clientId: "cat-code-cli" } },
    });
  });

  test("a literal secret goes only into the user's own file (0600), never into the output", async () => {
    const w = workspace();
    const { exitCode, stdout, stderr } = await w.cli("add", "-t", "http", "linear", URL_, "--client-id", "c", "--client-secret", `${SECRET}-literal`);
    expect(exitCode).toBe(0);
    expect(w.entries(w.userFile).linear.oauth).toEqual({ clientId: "c", clientSecret: `${SECRET}-literal` });
    expect(statSync(w.userFile).mode & 0o777).toBe(0o600);
    expectNoSecret(stdout, stderr);
  });

  test("add-json --scope project with the secret as ${VAR} writes .mcp.json", async () => {
    const w = workspace();
    const { exitCode } = await w.cli("add-json", "linear", JSON.stringify({ url: URL_, oauth: { clientId: "c", clientSecret: "${LINEAR_SECRET}" } }), "--scope", "project");
    expect(exitCode).toBe(0);
    expect(w.entries(w.projectFile).linear.oauth).toEqual({ clientId: "c", clientSecret: "${LINEAR_SECRET}" });
  });

  test("--scope project with the secret as ${VAR} writes .mcp.json", async () => {
    const w = workspace();
    const { exitCode } = await w.cli("add", "-t", "http", "linear", URL_, "--scope", "project", "--client-id", "c", "--client-secret", "${LINEAR_SECRET}");
    expect(exitCode).toBe(0);
    expect(w.entries(w.projectFile).linear.oauth).toEqual({ clientId: "c", clientSecret: "${LINEAR_SECRET}" });
  });

  const refusals: [string, string[], string][] = [
    ["--client-id on a stdio server", ["add", "a", "--client-id", "c", "--", "x"], "--client-id: OAuth is for http servers (--transport http <name> <url>)"],
    ["every oauth flag on a stdio server", ["add", "a", "--client-id", "c", "--client-secret", `${SECRET}-1`, "--callback-port", "1", "--oauth-scope", "r", "--", "x"], "--client-id, --client-secret, --callback-port, --oauth-scope: OAuth is for http servers"],
    ["a callback port of 0", ["add", "-t", "http", "a", URL_, "--callback-port", "0"], "--callback-port must be a port number from 1 to 65535, got '0'"],
    ["a callback port over 65535", ["add", "-t", "http", "a", URL_, "--callback-port", "65536"], "--callback-port must be a port number from 1 to 65535, got '65536'"],
    ["a callback port that is not a number", ["add", "-t", "http", "a", URL_, "--callback-port", "http"], "--callback-port must be a port number from 1 to 65535, got 'http'"],
    ["a secret without a client id", ["add", "-t", "http", "a", URL_, "--client-secret", `${SECRET}-2`], "--client-secret needs --client-id"],
    ["a client id given twice", ["add", "-t", "http", "a", URL_, "--client-id", "c", "--client-id", "d"], "--client-id is given 2 times; give it once"],
    ["an empty scope", ["add", "-t", "http", "a", URL_, "--oauth-scope", " "], "--oauth-scope needs at least one scope name"],
    ["a scope with a quote", ["add", "-t", "http", "a", URL_, "--oauth-scope", 'read"x'], 'every item of "oauth.scopes" must be one scope name without spaces or quotes'],
    ["a literal secret for the shared project file", ["add", "-t", "http", "a", URL_, "-s", "project", "--client-id", "c", "--client-secret", `${SECRET}-3`], "would write the secret into .mcp.json, which the project shares: pass it as '${VARIABLE}'"],
    ["a secret hidden in a ${VAR:-default} for the shared project file", ["add", "-t", "http", "a", URL_, "-s", "project", "--client-id", "c", "--client-secret", `\${UNSET_X:-${SECRET}-4}`], "would write the secret into .mcp.json"],
    ["add-json: a literal secret for the shared project file", ["add-json", "a", JSON.stringify({ url: URL_, oauth: { clientId: "c", clientSecret: `${SECRET}-5` } }), "--scope", "project"], `"oauth.clientSecret" with --scope project would write the secret into .mcp.json, which the project shares: write it as "\${VARIABLE}"`],
    ["add-json: a secret after a variable, for the shared project file", ["add-json", "a", JSON.stringify({ url: URL_, oauth: { clientId: "c", clientSecret: `\${X}${SECRET}-6` } }), "-s", "project"], `"oauth.clientSecret" with --scope project`],
    ["an OAuth scope given to --scope", ["add", "-t", "http", "a", URL_, "--scope", "read"], "--scope must be user or project (the file the entry goes to), not 'read'; the scopes to ask a server for go in --oauth-scope 'read'"],
    ["a flag without its value", ["add", "-t", "http", "a", URL_, "--client-id"], "--client-id needs a value"],
  ];
  for (const [what, args, message] of refusals) {
    test(`${what}: exit 2, the reason, no secret echoed, and no file changed`, async () => {
      const w = workspace();
      const original = '{"mcpServers": {"keep": {"command": "k"}}}';
      writeFileSync(w.userFile, original);
      const { exitCode, stderr, stdout } = await w.cli(...args);
      expect(exitCode).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).not.toContain("    at ");
      expect(stdout).toBe("");
      expectNoSecret(stderr);
      expect(readFileSync(w.userFile, "utf8")).toBe(original);
      expect(readdirSync(w.home)).toEqual(["mcp.json"]);
      expect(readdirSync(w.project)).toEqual([]);
    });
  }
});

describe("cat-code mcp get: the oauth block and the stored tokens", () => {
  const tokens = {
    accessToken: `${SECRET}-access`,
    refreshToken: `${SECRET}-refresh`,
    tokenType: "Bearer",
    expiresAt: Date.parse("2099-01-02T03:04:05.000Z"),
    scopes: ["read", "write"],
    issuer: "https://auth.example/tenant",
    resource: URL_,
    savedAt: 1,
  };

  test("shows the block with the secret masked, and that tokens are stored, never a token", async () => {
    const w = workspace();
    w.write(w.userFile, {
      linear: { type: "http", url: URL_, timeout: 2000, oauth: { clientId: "cat-code-cli", clientSecret: `${SECRET}-literal`, scopes: ["read", "write"], callbackPort: 8765 } },
    });
    await w.store.saveTokens({ server: "linear", url: URL_ }, tokens);
    await w.store.saveRegistration({ clientId: "reg", clientSecret: `${SECRET}-registered`, authMethod: "client_secret_post", redirectUris: [], issuer: tokens.issuer });
    const { exitCode, stdout, stderr } = await w.cli("get", "linear");
    expect(exitCode).toBe(0);
    const lines = stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual(["linear", "  scope:    user", `  file:     ${w.userFile}`, "  type:     http", `  url:      ${URL_}`]);
    expect(lines.slice(5, 11)).toEqual([
      "  oauth:    clientId: cat-code-cli",
      "            clientSecret: ***",
      "            scopes: read write",
      "            callbackPort: 8765",
      "  timeout:  2000",
      "  tokens:   stored (issuer https://auth.example/tenant, scopes read write, expires 2099-01-02 03:04, refreshable)",
    ]);
    expect(lines[11]).toStartWith("  status:   FAILED");
    expectNoSecret(stdout, stderr);
  });

  test("--json has oauth (masked) and signedIn; the entry's own oauth is masked too", async () => {
    const w = workspace();
    w.write(w.userFile, {
      linear: { type: "http", url: URL_, timeout: 2000, oauth: { clientId: "c", clientSecret: "${LINEAR_SECRET}", clientMetadataUrl: `https://cat.example/client.json?key=${SECRET}` } },
      plain: { type: "http", url: URL_, timeout: 2000 },
    });
    await w.store.saveTokens({ server: "linear", url: URL_ }, tokens);
    const result = await w.cli("get", "linear", "--json");
    const json = JSON.parse(result.stdout);
    const oauth = { clientId: "c", clientSecret: "${LINEAR_SECRET}", clientMetadataUrl: "https://cat.example/client.json?key=***" };
    expect(json).toMatchObject({ name: "linear", oauth, signedIn: true, entry: { oauth } });
    const plain = JSON.parse((await w.cli("get", "plain", "--json")).stdout);
    expect(plain).toMatchObject({ oauth: null, signedIn: false });
    const list = await w.cli("list", "--json");
    expectNoSecret(result.stdout, result.stderr, list.stdout, list.stderr);
  });

  test("tokens kept for another url of the entry are not its sign-in; none at all says none", async () => {
    const w = workspace();
    w.write(w.userFile, { linear: { type: "http", url: URL_, timeout: 2000 }, other: { type: "http", url: URL_, timeout: 2000 } });
    await w.store.saveTokens({ server: "linear", url: "http://127.0.0.1:9/old" }, tokens);
    const text = await w.cli("get", "linear");
    expect(text.stdout).toContain("\n  tokens:   none for this url (those of an earlier url stay until: cat-code mcp logout linear)\n");
    expect(JSON.parse((await w.cli("get", "linear", "--json")).stdout).signedIn).toBe(false);
    expect((await w.cli("get", "other")).stdout).toContain("\n  tokens:   none\n");
    expectNoSecret(text.stdout, text.stderr);
  });

  test("a project entry's oauth block is shown whole, as written, in text and JSON, with each ${VAR} and where it goes", async () => {
    const w = workspace();
    const shared = { clientId: "c", clientSecret: "project-literal-secret", scopes: ["repo"] };
    const fallback = { grant: "client_credentials", clientId: "${CLIENT_NAME:-robot}", clientSecret: "${NOT_SET_HERE:-fallback-value}" };
    w.write(w.projectFile, { shared: { type: "http", url: URL_, oauth: shared }, fallback: { type: "http", url: URL_, oauth: fallback } });
    const text = await w.cli("get", "shared");
    expect(text.stdout).toContain(["  oauth:   clientId: c", "           clientSecret: project-literal-secret", "           scopes: repo"].join("\n"));
    expect(JSON.parse((await w.cli("get", "shared", "--json")).stdout)).toMatchObject({ oauth: shared, entry: { oauth: shared } });
    const other = await w.cli("get", "fallback");
    expect(other.stdout).toContain("           clientSecret: ${NOT_SET_HERE:-fallback-value}\n");
    expect(other.stdout).toContain("  reads:   $CLIENT_NAME: sends it to the authorization server http://127.0.0.1:9 names (oauth.clientId)\n");
    expect(other.stdout).toContain("           $NOT_SET_HERE: sends it to the authorization server http://127.0.0.1:9 names (oauth.clientSecret)\n");
    const list = await w.cli("list");
    expect(list.stdout).toContain("    oauth:  grant: client_credentials\n");
    expect(list.stdout).toContain("            clientSecret: project-literal-secret\n");
  });
});
