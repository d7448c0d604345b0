import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, ECHO_SERVER, MODERN_SERVER, REPO, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

/**
 * Issue 13's promise, through the compiled binary: `cat-code mcp call` works unchanged against an
 * old-only server (the bash echo server, the SDK v1 HTTP server), a new-only one (our modern
 * fixture over stdio and HTTP) and a dual one (the SDK v2 server over both), with no setting;
 * `mcp list --json` says which revision each speaks; a server's question is declined (with its
 * line on stderr) or answered with the form's defaults, as `--elicitation` says.
 */
const SDK_V1_HTTP = join(REPO, "fixtures", "http", "sdk-http-server.ts");

let modernHttp: ServerProcess;
let dualHttp: ServerProcess;
let oldHttp: ServerProcess;
let config: string;

beforeAll(async () => {
  [modernHttp, dualHttp, oldHttp] = await Promise.all([
    spawnServer([BUN, MODERN_SERVER, "--http"], { ready: /listening http:\/\/127\.0\.0\.1:(\d+)\//, path: "/mcp" }),
    spawnServer([BUN, SDK_V2_SERVER, "--http"], { ready: /listening http:\/\/127\.0\.0\.1:(\d+)\//, path: "/mcp" }),
    spawnServer([BUN, SDK_V1_HTTP, "--mode", "sse"], { ready: /PORT (\d+)/, path: "/mcp" }),
    compiledBinary(),
  ]);
  config = writeConfig({
    "old-stdio": { command: ECHO_SERVER },
    "old-http": { type: "http", url: oldHttp.url },
    "modern-stdio": { command: BUN, args: [MODERN_SERVER, "--stdio"] },
    "modern-http": { type: "http", url: modernHttp.url },
    "dual-stdio": { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
    "dual-http": { type: "http", url: dualHttp.url },
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([modernHttp?.stop(), dualHttp?.stop(), oldHttp?.stop()]);
});

/**
 * What stderr must say besides the command's own lines: over modern HTTP the fixture's `bad_header`
 * tool (x-mcp-header on a number) is left out with a warning, as the spec requires.
 */
const expectedWarnings = (server: string) =>
  server === "modern-http"
    ? [`[warn] MCP tool 'bad_header' of server 'modern-http' is left out: x-mcp-header on property "amount": the property's type must be string, integer or boolean, not "number"; the server's other tools work`]
    : [];
const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  /** `cat-code mcp ...` as the compiled binary, with the test config and a home of the test's own. */
  const cat = (args: string[], home = tempDir()) => runBinary(["mcp", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: home } });

  describe("mcp call works unchanged against old-only, new-only and dual servers", () => {
    const cases: [string, string, string][] = [
      ["old-stdio", "echo", '{"text":"hi"}'],
      ["old-http", "echo", '{"message":"hi"}'],
      ["modern-stdio", "echo", '{"text":"hi"}'],
      ["modern-http", "echo", '{"text":"hi"}'],
      ["dual-stdio", "echo", '{"text":"hi"}'],
      ["dual-http", "echo", '{"text":"hi"}'],
    ];
    for (const [server, tool, json] of cases) {
      test(`${server}: prints the answer and exits 0, the first time and again with the era remembered`, async () => {
        const home = tempDir();
        const first = await cat(["call", server, tool, "--json", json], home);
        expect([first.exitCode, first.stdout, lines(first.stderr)]).toEqual([0, "hi\n", expectedWarnings(server)]);
        const again = await cat(["call", server, tool, "--json", json], home);
        expect([again.exitCode, again.stdout, lines(again.stderr)]).toEqual([0, "hi\n", expectedWarnings(server)]);
        // The era is remembered per configuration in the home: the second run did not need to probe.
        const remembered = Object.values(JSON.parse(readFileSync(join(home, "protocol-eras.json"), "utf8")).servers);
        expect(remembered).toEqual([expect.objectContaining({ era: server.startsWith("old") ? "legacy" : "modern" })]);
      }, 60_000);
    }
  });

  test("mcp list --json says the revision of each server; a server that speaks both gets the newest", async () => {
    const { exitCode, stdout } = await cat(["list", "--json"]);
    expect(exitCode).toBe(0);
    const servers = JSON.parse(stdout).servers as { name: string; state: string; protocolVersion: string; era: string; revision: string }[];
    const revisions = Object.fromEntries(servers.map((s) => [s.name, [s.state, s.era, s.revision]]));
    expect(revisions).toEqual({
      "old-stdio": ["connected", "legacy", expect.stringMatching(/^2025-\d\d-\d\d \(handshake\)$/)],
      "old-http": ["connected", "legacy", "2025-11-25 (handshake)"],
      "modern-stdio": ["connected", "modern", "2026-07-28 (stateless)"],
      "modern-http": ["connected", "modern", "2026-07-28 (stateless)"],
      "dual-stdio": ["connected", "modern", "2026-07-28 (stateless)"],
      "dual-http": ["connected", "modern", "2026-07-28 (stateless)"],
    });
  }, 60_000);

  test("mcp get names the revision: stateless for a modern server, handshake for an old one", async () => {
    const modern = await cat(["get", "modern-stdio"]);
    expect(modern.stdout).toMatch(/\n  server: +cat-code-modern-fixture 1\.0\.0  \(protocol 2026-07-28 \(stateless\)\)\n/);
    const old = await cat(["get", "old-http"]);
    expect(old.stdout).toContain("(protocol 2025-11-25 (handshake))");
    const json = JSON.parse((await cat(["get", "dual-http", "--json"])).stdout);
    expect(json.status).toMatchObject({ state: "connected", protocolVersion: "2026-07-28", era: "modern", revision: "2026-07-28 (stateless)" });
  }, 60_000);

  describe("a server's question (ask_name) in mcp call", () => {
    for (const server of ["modern-stdio", "modern-http", "dual-stdio", "dual-http"]) {
      test(`${server}: --elicitation accept-defaults sends the form's defaults`, async () => {
        const { exitCode, stdout, stderr } = await cat(["call", server, "ask_name", "--elicitation", "accept-defaults"]);
        expect([exitCode, lines(stderr)]).toEqual([0, expectedWarnings(server)]);
        // The modern fixture greets with the colour too; the SDK v2 one with the name only.
        expect(stdout).toStartWith("Hello Ada");
      }, 60_000);

      test(`${server}: by default it is declined, with one line on stderr saying what was asked`, async () => {
        const { exitCode, stdout, stderr } = await cat(["call", server, "ask_name"]);
        expect([exitCode, stdout]).toEqual([0, "You declined to give your name.\n"]);
        expect(lines(stderr)).toEqual([
          ...expectedWarnings(server),
          `cat-code: ${server} asked for input ("What is your name?", fields: name, color, formal) — declined: run it in the REPL to answer`,
        ]);
      }, 60_000);
    }

    test("a bad --elicitation value is a usage error before anything starts", async () => {
      const { exitCode, stderr, stdout } = await cat(["call", "modern-stdio", "ask_name", "--elicitation", "accept"]);
      expect([exitCode, stdout]).toEqual([2, ""]);
      expect(stderr.trim()).toBe("error: --elicitation must be decline or accept-defaults, got 'accept'");
    });
  });
});
