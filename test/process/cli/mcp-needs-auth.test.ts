import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";

/**
 * What a user sees of a server that wants an OAuth sign-in, with no tokens stored and nobody to sign
 * in: a real HTTP server answering 401 with a Bearer challenge, through the CLI as a process.
 */
describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  let dir: string;
  let config: string;
  let protectedServer: ScriptedServer;
  let openServer: ScriptedServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cat-code-needs-auth-"));
    protectedServer = new ScriptedServer(
      () => new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"' } }),
    );
    openServer = new ScriptedServer(() => undefined);
    config = join(dir, "mcp.json");
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          linear: { type: "http", url: protectedServer.url },
          open: { type: "http", url: openServer.url },
          local: { command: "true" },
          keyed: { type: "http", url: protectedServer.url, headers: { Authorization: "Bearer mine" } },
        },
      }),
    );
  });

  afterAll(async () => {
    await protectedServer?.stop();
    await openServer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cat = (args: string[]) => runBinary(args, { env: { CAT_CODE_HOME: join(dir, "home"), BROWSER: "/bin/false" } });
  const hint = () => `cat-code mcp login --mcp-config ${config} linear`;

  describe("a server that needs a sign-in, from the CLI", () => {
    test("mcp list shows NEEDS-AUTH with the command, and exits as list does (0)", async () => {
      const { exitCode, stdout } = await cat(["mcp", "list", "--mcp-config", config]);
      const line = stdout.split("\n").find((l) => l.startsWith("linear"));
      expect(line).toMatch(/^linear\s+NEEDS-AUTH\s+run: /);
      expect(line).toContain(`run: ${hint()}`);
      expect(line).toContain(`(http: ${protectedServer.url})`);
      expect(stdout).not.toMatch(/linear\s+FAILED/);
      expect(exitCode).toBe(0);
    });

    test("mcp list --json has the state and the reason", async () => {
      const { stdout } = await cat(["mcp", "list", "--json", "--mcp-config", config]);
      const linear = JSON.parse(stdout).servers.find((server: { name: string }) => server.name === "linear");
      expect(linear).toMatchObject({ state: "needs-auth", reason: expect.stringContaining(hint()) });
    });

    test("mcp call exits 5 with one line naming the server and the command", async () => {
      const { exitCode, stderr } = await cat(["mcp", "call", "--mcp-config", config, "linear", "echo"]);
      expect(stderr.trim()).toBe(`error: 'linear' (${protectedServer.url}) needs you to sign in: run ${hint()}`);
      expect(exitCode).toBe(5);
    });

    test("mcp tools <server> exits 5; mcp tools of all servers warns and lists the others", async () => {
      const one = await cat(["mcp", "tools", "--mcp-config", config, "linear"]);
      expect(one.stderr).toContain("needs you to sign in");
      expect(one.exitCode).toBe(5);
      const all = await cat(["mcp", "tools", "--mcp-config", config]);
      expect(all.stdout).toContain("mcp__open__echo");
      expect(all.stderr).toContain(`'linear' (${protectedServer.url}) needs you to sign in`);
      expect(all.exitCode).toBe(0);
    });

    test("an ad-hoc --url server's hint is mcp login --url, its query values masked", async () => {
      const url = `${protectedServer.url}?key=s3cr3t-value`;
      const { exitCode, stderr } = await cat(["mcp", "call", "--url", url, "echo"]);
      expect(stderr).toContain(`run cat-code mcp login --url '${protectedServer.url}?key=***'`);
      expect(stderr).toContain("key=***");
      expect(stderr).not.toContain("s3cr3t-value");
      expect(exitCode).toBe(5);
    });

    test("without --login no browser is ever started", async () => {
      // BROWSER is /bin/false: a start would not show, but a sign-in would print its URL line.
      const { stderr } = await cat(["mcp", "call", "--mcp-config", config, "linear", "echo"]);
      expect(stderr).not.toContain("Sign in");
    });
  });

  describe("mcp login refusals", () => {
    test("a stdio entry is a usage error saying why", async () => {
      const { exitCode, stderr } = await cat(["mcp", "login", "--mcp-config", config, "local"]);
      expect(stderr).toContain("'local' is a stdio server");
      expect(exitCode).toBe(2);
    });

    test("an entry with its own Authorization header is a usage error saying why", async () => {
      const { exitCode, stderr } = await cat(["mcp", "login", "--mcp-config", config, "keyed"]);
      expect(stderr).toContain("sets its own Authorization header");
      expect(stderr).not.toContain("mine");
      expect(exitCode).toBe(2);
    });

    test("a server that does not ask for a sign-in says so and exits 0", async () => {
      const { exitCode, stdout } = await cat(["mcp", "login", "--no-browser", "--mcp-config", config, "open"]);
      expect(stdout.trim()).toBe("'open' does not ask for a sign-in");
      expect(exitCode).toBe(0);
    });

    test("mcp logout of a server without tokens says so", async () => {
      const { exitCode, stdout } = await cat(["mcp", "logout", "--mcp-config", config, "linear"]);
      expect(stdout.trim()).toBe("no tokens stored for linear");
      expect(exitCode).toBe(0);
    });
  });
});
