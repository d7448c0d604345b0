import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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

  test("list shows what settings.json disables as disabled, from the project's file or the user's (and reads none when there is none)", async () => {
    const home = tempDir("cat-code-home-");
    const project = tempDir("cat-code-project-");
    const config = join(project, "servers.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: ECHO_SERVER }, other: { command: ECHO_SERVER } } }));
    const list = async () => (await runBinary(["mcp", "list", "--mcp-config", config], { cwd: project, env: { CAT_CODE_HOME: home } })).stdout;
    expect(await list()).not.toContain("DISABLED");
    mkdirSync(join(project, ".cat-code"));
    writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ disabledMcpServers: ["echo"] }));
    expect(await list()).toMatch(/^echo +DISABLED.*\nother +CONNECTED/s);
    rmSync(join(project, ".cat-code"), { recursive: true });
    writeFileSync(join(home, "settings.json"), JSON.stringify({ disabledMcpServers: ["other"] }));
    expect(await list()).toMatch(/^echo +CONNECTED.*\nother +DISABLED/);
  });

  test("--help works on every new command", async () => {
    for (const command of ["add", "add-json", "get", "remove", "approve", "deny"]) {
      const { exitCode, stdout } = await runBinary(["mcp", command, "--help"]);
      expect(exitCode).toBe(0);
      expect(stdout).toContain(`mcp ${command}`);
    }
  });
});
