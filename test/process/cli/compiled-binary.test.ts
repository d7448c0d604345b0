import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { compiledBinary, run } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";

beforeAll(async () => {
  await compiledBinary();
}, 120_000);

describe.each(KEEPER_MODES)("the compiled binary (%s)", (mode) => {
  const { runBinary, env } = useKeeperMode(mode);

  test("--version prints the version from package.json", async () => {
    const { exitCode, stdout } = await runBinary(["--version"]);
    expect(exitCode).toBe(0);
    expect(stdout).toStartWith(`cat-code ${pkg.version}`);
  });

  test("the demo: mcp call on fixtures/demo.mcp.json prints hi", async () => {
    const { exitCode, stdout } = await runBinary(["mcp", "call", "--mcp-config", "fixtures/demo.mcp.json", "echo", "echo", "--json", '{"text":"hi"}'], {
      cwd: REPO,
    });
    expect([exitCode, stdout]).toEqual([0, "hi\n"]);
  });

  test("list, tools and call against the fixtures, with every exit code", async () => {
    const config = writeConfig({ echo: { command: ECHO_SERVER }, chaos: { command: BUN, args: [CHAOS_SERVER] } });
    const list = await runBinary(["mcp", "list", "--mcp-config", config]);
    expect(list.stdout).toContain(`echo   CONNECTED  1 tool(s)  (stdio: ${ECHO_SERVER})`);
    const tools = await runBinary(["mcp", "tools", "chaos", "--mcp-config", config]);
    expect(tools.stdout.split("\n")[0]).toBe("mcp__chaos__echo   Echo back the input text");
    const ok = await runBinary(["mcp", "call", "echo", "echo", "text=你好", "--mcp-config", config]);
    expect([ok.exitCode, ok.stdout]).toEqual([0, "你好\n"]);
    const toolError = await runBinary(["mcp", "call", "chaos", "nope", "--mcp-config", config]);
    expect(toolError.exitCode).toBe(2);
    const unavailable = await runBinary(["mcp", "call", "chaos", "sleep", "ms=5000", "--timeout", "200", "--mcp-config", config]);
    expect(unavailable.exitCode).toBe(3);
    expect(unavailable.stderr).toContain("timed out after 200 ms");
  });

  test("an isError answer exits 1", async () => {
    const { exitCode } = await runBinary(["mcp", "call", "--stdio", `${BUN} ${CHAOS_SERVER} --is-error`, "echo", "text=x"]);
    expect(exitCode).toBe(1);
  });

  test("does not read .env or bunfig.toml from the folder it runs in", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env"), "CAT_CODE_HOME=/from/dotenv\n");
    writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./boom.ts"]\n');
    writeFileSync(join(dir, "boom.ts"), 'console.log("bunfig was read"); process.exit(9);\n');
    const home = tempDir();
    const { exitCode, stdout, stderr } = await run([await compiledBinary(), "mcp", "list"], {
      cwd: dir,
      env: env({ CAT_CODE_HOME: undefined, HOME: home }),
    });
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain("bunfig was read");
    expect(stderr).toContain(`No MCP servers configured in ${join(home, ".cat-code", "mcp.json")}`);
  });

  test("--help works on every command", async () => {
    for (const args of [["--help"], ["mcp", "--help"], ["mcp", "list", "--help"], ["mcp", "tools", "--help"], ["mcp", "call", "--help"]]) {
      const { exitCode, stdout } = await runBinary(args);
      expect(exitCode).toBe(0);
      expect(stdout).toContain("USAGE");
    }
  });
});
