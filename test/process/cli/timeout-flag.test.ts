/**
 * `--timeout` on `mcp call`, `mcp tools` and `mcp list` bounds every request to the server, the
 * handshake included: a server that never answers `initialize` costs the flag's time, not the
 * default 30 s. A timeout too large for a timer is refused before anything starts.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

/** A server without its own `timeout` (so the default 30 s) that never answers initialize. */
function silentServer() {
  const record = join(tempDir(), "received.ndjson");
  const config = writeConfig({ mute: { command: BUN, args: [CHAOS_SERVER, "--hang=initialize", `--record=${record}`] } });
  return { config, record };
}

/** Well under the default 30 s: only a handshake bounded by --timeout finishes in time. */
const BOUND_MS = 10_000;

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  describe("--timeout bounds the handshake", () => {
    const commands: [string, string[], number, string][] = [
      ["mcp call", ["mcp", "call", "mute", "echo", "text=x"], 3, "cannot connect to MCP server 'mute': initialize timed out after 300 ms"],
      ["mcp tools <server>", ["mcp", "tools", "mute"], 3, "cannot connect to MCP server 'mute': initialize timed out after 300 ms"],
    ];
    for (const [name, args, code, message] of commands) {
      test(`${name}: exit ${code} after about --timeout, naming initialize`, async () => {
        const { config, record } = silentServer();
        const started = performance.now();
        const { exitCode, stderr } = await runBinary([...args, "--timeout", "300", "--mcp-config", config]);
        expect(performance.now() - started).toBeLessThan(BOUND_MS);
        expect(stderr).toContain(message);
        expect(exitCode).toBe(code);
        expect(await Bun.file(record).text()).toContain('"method":"initialize"');
      });
    }

    test("mcp list: the server FAILED with the handshake's timeout, within the bound", async () => {
      const { config } = silentServer();
      const started = performance.now();
      const { exitCode, stdout } = await runBinary(["mcp", "list", "--timeout", "300", "--mcp-config", config]);
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
      expect(stdout).toContain("mute  FAILED  initialize timed out after 300 ms");
      expect(exitCode).toBe(0);
    });
  });

  describe("a --timeout a timer cannot hold is refused before anything starts", () => {
    for (const args of [["mcp", "call", "mute", "echo", "text=x"], ["mcp", "tools"], ["mcp", "list"]]) {
      test(`${args.slice(0, 2).join(" ")} --timeout 3000000000: exit 2, nothing spawned`, async () => {
        const { config, record } = silentServer();
        const { exitCode, stderr, stdout } = await runBinary([...args, "--timeout", "3000000000", "--mcp-config", config]);
        expect(stderr).toBe("error: --timeout must be at most 2147483647 ms (about 24 days), got '3000000000'\n");
        expect(exitCode).toBe(2);
        expect(stdout).toBe("");
        expect(existsSync(record)).toBe(false);
      });
    }

    test("--timeout that is no whole number: exit 2", async () => {
      const { config } = silentServer();
      const { exitCode, stderr } = await runBinary(["mcp", "list", "--timeout", "1.5", "--mcp-config", config]);
      expect(stderr).toContain("--timeout must be a whole number of milliseconds, got '1.5'");
      expect(exitCode).toBe(2);
    });
  });
});
