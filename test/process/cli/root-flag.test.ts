/**
 * `--root <dir>` (repeatable) on the REPL, `-p` and `mcp call`/`tools`/`list`: the folders servers
 * are told they may work in besides the working directory. A missing folder or a file is a usage
 * error naming it (exit 2), before any server starts.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rootFlagValues } from "../../../src/cli/root-flags.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

describe("rootFlagValues", () => {
  test("every --root, in order, in both spellings (citty alone keeps only the last)", () => {
    expect(rootFlagValues(["mcp", "call", "--root", "a", "s", "t", "--root=b", "--json", "{}", "--root", "c d"])).toEqual(["a", "b", "c d"]);
    expect(rootFlagValues(["--json", "{}"])).toEqual([]);
  });

  test("nothing after -- is a flag", () => {
    expect(rootFlagValues(["--root", "a", "--", "--root", "b"])).toEqual(["a"]);
  });

  test("a --root without a folder is a usage error", () => {
    for (const args of [["--root"], ["--root", "--json"], ["--root="]]) {
      expect(() => rootFlagValues(args)).toThrow("--root needs a folder");
    }
  });
});

/** A server that records what it receives: the file exists only if it was started and spoken to. */
function recordingServer() {
  const record = join(tempDir(), "received.ndjson");
  return { config: writeConfig({ rec: { command: BUN, args: [CHAOS_SERVER, `--record=${record}`] } }), record };
}

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  describe("--root on the command line", () => {
    const missing = join(tempDir(), "no-such-folder");
    const file = join(tempDir(), "a-file.txt");
    writeFileSync(file, "x");

    const commands: [string, (config: string) => string[]][] = [
      ["mcp call", (config) => ["mcp", "call", "rec", "echo", "text=x", "--mcp-config", config]],
      ["mcp tools", (config) => ["mcp", "tools", "--mcp-config", config]],
      ["mcp list", (config) => ["mcp", "list", "--mcp-config", config]],
      ["-p", (config) => ["-p", "hello", "--mcp-config", config]],
      ["the REPL", (config) => ["--mcp-config", config]],
    ];
    for (const [name, args] of commands) {
      test(`${name}: a missing folder is a usage error naming it, and no server starts`, async () => {
        const { config, record } = recordingServer();
        const result = await runBinary([...args(config), "--root", tempDir(), "--root", missing], { env: { ANTHROPIC_API_KEY: "" } });
        expect(result.stderr).toContain(`error: --root ${missing}: there is no folder ${missing}`);
        expect(result.exitCode).toBe(2);
        expect(existsSync(record)).toBe(false);
      });
    }

    test("a file is refused as a root, naming it", async () => {
      const result = await runBinary(["mcp", "call", "--stdio", ECHO_SERVER, "echo", "text=x", `--root=${file}`]);
      expect(result.stderr).toContain(`error: --root ${file}: ${file} is not a folder`);
      expect(result.exitCode).toBe(2);
    });

    test("--root without a folder is a usage error", async () => {
      const result = await runBinary(["mcp", "list", "--root"]);
      expect(result.stderr).toContain("error: --root needs a folder");
      expect(result.exitCode).toBe(2);
    });

    test("existing folders, repeated and in both spellings, change nothing for a call", async () => {
      const result = await runBinary(["mcp", "call", "--stdio", ECHO_SERVER, "echo", "text=hi", "--root", tempDir(), `--root=${tempDir()}`]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("hi\n");
      expect(result.exitCode).toBe(0);
    });

    test("the help of mcp call and of cat-code lists --root", async () => {
      for (const args of [["mcp", "call", "--help"], ["--help"]]) {
        const result = await runBinary(args);
        expect(result.stdout).toContain("--root");
      }
    });
  });
});
