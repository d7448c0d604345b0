import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { ECHO_SERVER, tempDir } from "../../helpers/paths.ts";
import { isWellKnownSecret } from "../../../src/system/own-secrets.ts";

beforeAll(async () => {
  await compiledBinary();
}, 120_000);

describe("the compiled binary manages config", () => {
  test("add, get, approve, list and remove work from the single executable", async () => {
    const home = tempDir("cat-code-home-");
    const project = tempDir("cat-code-project-");
    // This machine's own well-known secrets (AWS_*, …) left out, so `mcp get` reads the same everywhere.
    const hidden = Object.fromEntries(Object.keys(process.env).filter(isWellKnownSecret).map((name) => [name, undefined]));
    const cli = (...args: string[]) => runBinary(["mcp", ...args], { cwd: project, env: { CAT_CODE_HOME: home, ...hidden } });

    const added = await cli("add", "echo", "-e", "TOKEN=hunter2", "--", ECHO_SERVER);
    expect(added.exitCode).toBe(0);
    const get = await cli("get", "echo");
    expect(get.stdout).toContain("  env:      TOKEN=***\n");
    expect(get.stdout).toContain("  status:   CONNECTED  1 tool(s)");
    expect(get.stdout).not.toContain("hunter2");

    const marker = join(home, "started");
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: "bash", args: ["-c", `touch ${marker}; exec ${ECHO_SERVER}`] } } }));
    expect((await cli("list")).stdout).toBe(
      `echo  CONNECTED       1 tool(s)  (stdio: ${ECHO_SERVER})\nproj  NEEDS-APPROVAL  (project: .mcp.json)\n    command:  bash -c 'touch ${marker}; exec ${ECHO_SERVER}'\n`,
    );
    expect(existsSync(marker)).toBe(false);
    expect((await cli("approve", "proj")).exitCode).toBe(0);
    expect((await cli("list")).stdout).toContain("proj  CONNECTED  1 tool(s)  (stdio: bash -c touch");
    expect(existsSync(marker)).toBe(true);

    expect((await cli("remove", "echo")).exitCode).toBe(0);
    expect((await cli("remove", "echo")).exitCode).toBe(2);
  });

  test("--help works on every new command", async () => {
    for (const command of ["add", "add-json", "get", "remove", "approve", "deny"]) {
      const { exitCode, stdout } = await runBinary(["mcp", command, "--help"]);
      expect(exitCode).toBe(0);
      expect(stdout).toContain(`mcp ${command}`);
    }
  });
});
