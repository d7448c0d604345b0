import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { run } from "../../helpers/binary.ts";
import { REPO, tempDir } from "../../helpers/paths.ts";

/** `cat-code <args>` from source, with the MCP and agent code (and their SDKs) made unloadable. */
function runWithoutHeavyModules(args: string[]) {
  const guard = join(REPO, "test", "process", "cli", "forbid-heavy-modules.ts");
  return run([process.execPath, "--preload", guard, join(REPO, "src", "cli", "main.ts"), ...args], { env: { CAT_CODE_HOME: tempDir() } });
}

describe("start-up loads only what the command needs", () => {
  test("--version runs without the MCP, agent and REPL code, the SDKs or the logger", async () => {
    const result = await runWithoutHeavyModules(["--version"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toStartWith("cat-code ");
    expect(result.exitCode).toBe(0);
  });

  test("--help runs without them too", async () => {
    const result = await runWithoutHeavyModules(["--help"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("USAGE");
    expect(result.exitCode).toBe(0);
  });

  test("the guard bites: mcp list needs the MCP code and fails under it", async () => {
    const result = await runWithoutHeavyModules(["mcp", "list"]);
    expect(result.stderr).toContain("forbidden module loaded");
    expect(result.exitCode).not.toBe(0);
  });
});
