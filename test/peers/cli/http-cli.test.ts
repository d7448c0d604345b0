import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { RunResult } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { REPO } from "../../helpers/paths.ts";
import { spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

const SDK_HTTP_SERVER = join(REPO, "fixtures", "http", "sdk-http-server.ts");

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runSource, runBinary } = useKeeperMode(mode);

  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer([process.execPath, SDK_HTTP_SERVER, "--mode", "sse"], { ready: /PORT (\d+)/, path: "/mcp" });
  });
  afterAll(() => server?.stop());

  // The same commands, from source and as the compiled binary: `--url` reaches an SDK server over HTTP.
  const runners: [string, (args: string[]) => Promise<RunResult>][] = [
    ["from source", (args) => runSource(args)],
    ["the compiled binary", (args) => runBinary(args)],
  ];

  for (const [name, cat] of runners) {
    describe(`cat-code mcp --url (${name})`, () => {
      test("mcp list shows the server connected with its tools", async () => {
        const { exitCode, stdout } = await cat(["mcp", "list", "--url", server.url]);
        expect(stdout).toContain("CONNECTED");
        expect(stdout).toContain("3 tool(s)");
        expect(stdout).toContain(`http: ${server.url}`);
        expect(exitCode).toBe(0);
      });

      test("mcp tools lists the server's tools under their mcp__ names", async () => {
        const { exitCode, stdout } = await cat(["mcp", "tools", "--url", server.url]);
        expect(stdout).toContain("mcp__adhoc__echo");
        expect(stdout).toContain("mcp__adhoc__add");
        expect(exitCode).toBe(0);
      });

      test("mcp call echo prints the answer", async () => {
        const { exitCode, stdout } = await cat(["mcp", "call", "--url", server.url, "echo", "--json", '{"message":"hi"}']);
        expect(stdout.trim()).toBe("hi");
        expect(exitCode).toBe(0);
      });

      test("a url where nothing listens fails with 'cannot reach' and exit 3", async () => {
        const url = "http://127.0.0.1:1/mcp";
        const { exitCode, stderr } = await cat(["mcp", "call", "--url", url, "echo", "--json", '{"message":"hi"}']);
        expect(stderr).toContain(`cannot reach ${url}`);
        expect(exitCode).toBe(3);
      });
    });
  }
});
