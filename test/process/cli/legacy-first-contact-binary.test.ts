/**
 * Issue 26 through the compiled binary, cold and through the keeper: `mcp call` works at first
 * contact with a legacy stdio server that exits or closes its stdout on the era probe, and later
 * runs send no probe (the era is remembered); an HTTP server silent on unknown methods costs the
 * probe's short window, not the 30 s timeout; a failed step is named; `--elicitation
 * accept-defaults` says why it declined a form it cannot fill.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

/**
 * Each entry's timeout: longer than each test's own bound, so a request left to its timeout (a
 * closed stdout, a probe window as long as half the timeout) fails the test instead of passing late.
 */
const BEYOND_THE_TEST_MS = 600_000;

let silentHttp: ServerProcess;
const silentRecord = join(tempDir(), "silent-http.jsonl");
beforeAll(async () => {
  const silent = [BUN, CHAOS_SERVER, "--http", "--hang=unknown", `--record=${silentRecord}`];
  [silentHttp] = await Promise.all([spawnServer(silent, { ready: /chaos listening on port (\d+)/, path: "/mcp" }), compiledBinary()]);
}, 120_000);
afterAll(() => silentHttp?.stop());

function methods(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line).method ?? "(answer)");
}

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  /** `cat-code mcp call ...` against one server entry (its timeout BEYOND_THE_TEST_MS), in `home`. */
  function call(server: object, args: string[], home = tempDir()) {
    const config = writeConfig({ old: { ...server, timeout: BEYOND_THE_TEST_MS } });
    return runBinary(["mcp", "call", "old", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: home } });
  }

  for (const how of ["exit", "close-stdout"]) {
    test(`a stdio server that does ${how} on the probe: mcp call answers the first time and again, the probe sent once in all`, async () => {
      const home = tempDir();
      const record = join(tempDir(), "received.jsonl");
      const server = { command: BUN, args: [CHAOS_SERVER, `--unknown-method=${how}`, `--record=${record}`] };
      for (let run = 1; run <= 2; run++) {
        const { exitCode, stdout, stderr } = await call(server, ["echo", "--json", '{"text":"hi"}'], home);
        expect([run, exitCode, stdout, stderr]).toEqual([run, 0, "hi\n", ""]);
      }
      const received = methods(record);
      expect(received.slice(0, 2)).toEqual(["server/discover", "initialize"]);
      expect(received.filter((method) => method === "server/discover")).toHaveLength(1);
      const remembered = Object.values(JSON.parse(readFileSync(join(home, "protocol-eras.json"), "utf8")).servers);
      expect(remembered).toEqual([expect.objectContaining({ era: "legacy" })]);
    }, 60_000);
  }

  test("an HTTP server that never answers the probe: mcp call answers after the probe's window, not the timeout", async () => {
    const before = methods(silentRecord).length;
    const { exitCode, stdout, stderr } = await call({ type: "http", url: silentHttp.url }, ["echo", "--json", '{"text":"hi"}']);
    expect([exitCode, stdout, stderr]).toEqual([0, "hi\n", ""]);
    // One probe, then the handshake: the window passed once and nothing was sent again.
    const sent = methods(silentRecord).slice(before);
    expect(sent.slice(0, 2)).toEqual(["server/discover", "initialize"]);
    expect(sent.filter((method) => method === "server/discover")).toHaveLength(1);
    expect(sent).toContain("tools/call");
  }, 60_000);

  test("a server that crashes on tools/list: the message names the step", async () => {
    const { exitCode, stderr } = await call({ command: BUN, args: [CHAOS_SERVER, "--crash=on-list"] }, ["echo", "--json", '{"text":"hi"}']);
    expect(exitCode).toBe(3);
    expect(stderr).toContain("cannot connect to MCP server 'old': tools/list failed: the server exited with code 3; its last stderr lines:\nchaos: crashing on tools/list as asked");
  }, 60_000);

  test("--elicitation accept-defaults on a form whose required field has no default: declined, with a line saying why", async () => {
    const { exitCode, stdout, stderr } = await call({ command: BUN, args: [CHAOS_SERVER, "--ask-tool"] }, ["ask", "--elicitation", "accept-defaults"]);
    expect([exitCode, stdout]).toEqual([0, "elicitation: decline\n"]);
    expect(lines(stderr)).toEqual([
      'cat-code: old asked for input ("Which email address?", fields: email) — declined: accept-defaults has no default for the required field email; run it in the REPL to answer',
    ]);
  }, 60_000);
});
