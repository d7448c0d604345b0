import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { REPO, tempDir } from "../../helpers/paths.ts";
import { freePort, spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

/**
 * Secrets expanded from `${VAR}` into a url (userinfo, query values) never reach the output of any
 * command: not the status line, not `--json`, not an error, not a warning, not a debug line.
 */
const PASSWORD = "pw-sekrit-5be1";
const TOKEN = "tok-sekrit-93c7";
const env = { URL_TEST_PASSWORD: PASSWORD, URL_TEST_TOKEN: TOKEN };
const SDK_HTTP_SERVER = join(REPO, "fixtures", "http", "sdk-http-server.ts");

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  let working: ServerProcess;
  let failing: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    working = await spawnServer([process.execPath, SDK_HTTP_SERVER, "--mode", "json"], { ready: /PORT (\d+)/, path: "/mcp" });
    // A server that is there but fails every request, echoing nothing of the request.
    failing = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down for maintenance", { status: 503 }) });
  });
  afterAll(async () => {
    await working?.stop();
    failing?.stop(true);
  });

  /** `http://alice:${URL_TEST_PASSWORD}@host:port/mcp?api_key=${URL_TEST_TOKEN}&team=cats` */
  function secretUrl(origin: string): string {
    const { protocol, host } = new URL(origin);
    return `${protocol}//alice:\${URL_TEST_PASSWORD}@${host}/mcp?api_key=\${URL_TEST_TOKEN}&team=cats`;
  }

  async function everyCommand(origin: string): Promise<RunResult[]> {
    const home = tempDir("cat-code-home-");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { remote: { url: secretUrl(origin), timeout: 10_000 } } }));
    const cli = (...args: string[]) => runBinary(["mcp", ...args, "--verbose"], { cwd: tempDir(), env: { ...env, CAT_CODE_HOME: home } });
    return Promise.all([
      cli("list"),
      cli("list", "--json"),
      cli("get", "remote"),
      cli("get", "remote", "--json"),
      cli("tools"),
      cli("tools", "remote"),
      cli("call", "remote", "echo", "message=hi"),
    ]);
  }

  describe("a secret in a url's userinfo or query never appears in any output", () => {
    test("a server that works: every command succeeds and none prints the secrets", async () => {
      const runs = await everyCommand(working.url);
      expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0, 0, 0]);
      const all = runs.map((r) => r.stdout + r.stderr).join("\n");
      // The url is shown as written, so the user sees which variables it uses.
      expect(runs[0]!.stdout).toContain("(http: http://alice:${URL_TEST_PASSWORD}@127.0.0.1:");
      expect(runs[6]!.stdout).toBe("hi\n");
      expect(all).not.toContain(PASSWORD);
      expect(all).not.toContain(TOKEN);
    });

    const failures: [what: string, origin: () => string, reason: RegExp][] = [
      ["a server that answers 503", () => `http://127.0.0.1:${failing.port}`, /503/],
      ["nothing listening", () => `http://127.0.0.1:${freePort()}`, /cannot reach/],
    ];
    for (const [what, origin, reason] of failures) {
      test(`${what}: list, list --json, get and get --json report the failure without the secrets`, async () => {
        const runs = (await everyCommand(origin())).slice(0, 4);
        expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
        const all = runs.map((r) => r.stdout + r.stderr).join("\n");
        expect(all).toMatch(reason);
        expect(all).not.toContain(PASSWORD);
        expect(all).not.toContain(TOKEN);
      });

      // The errors of `tools <server>` and `call` quote the HTTP transport's message as it is: this
      // holds once the transport shows urls through redactUrl (the HTTP helper's change). Run with --todo.
      test(`${what}: tools and call fail with exit 3, and no message prints the secrets`, async () => {
        const runs = (await everyCommand(origin())).slice(4);
        expect(runs.map((r) => r.exitCode)).toEqual([0, 3, 3]);
        const all = runs.map((r) => r.stdout + r.stderr).join("\n");
        expect(all).toMatch(reason);
        expect(all).not.toContain(PASSWORD);
        expect(all).not.toContain(TOKEN);
      });
    }
  });
});
