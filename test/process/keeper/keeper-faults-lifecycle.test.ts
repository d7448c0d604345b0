/**
 * What stays running and how it ends, through the compiled binary: `mcp keeper status` lists the
 * warm connections; `mcp keeper stop` and SIGTERM end the keeper and every server it holds, and take
 * its socket and keeper.json with it; a changed entry gets a server of its own; `--no-keeper`,
 * `CAT_CODE_NO_KEEPER=1` and `keepAlive: 0` keep the command to itself.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { keeperProcessesOf, pathsOf, waitForExit, waitForKeeper } from "../../helpers/keeper-home.ts";
import { ECHO_SERVER, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { callEcho, cat, echoConfig, newHome, serverPids, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

async function expectGone(home: string, marker: string, keeperPid: number): Promise<void> {
  await waitForExit(keeperPid, "the keeper to exit");
  await waitFor(() => serverPids(marker).length === 0, () => `no echo server left (have ${serverPids(marker)})`, { timeoutMs: 10_000 });
  expect(keeperProcessesOf(home)).toEqual([]);
  expect([existsSync(pathsOf(home).socket), existsSync(pathsOf(home).info)]).toEqual([false, false]);
}

describe("mcp keeper status and stop", () => {
  test("status lists each warm connection with its calls; --json too", async () => {
    const home = newHome();
    const { config } = echoConfig();
    for (const text of ["one", "two"]) expect((await callEcho(home, config, text)).stdout).toBe(`${text}\n`);
    const keeper = await waitForKeeper(home);

    const text = await cat(home, ["mcp", "keeper", "status"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(String(keeper.pid));
    expect(text.stdout).toMatch(/^.*echo.*$/m);
    expect(text.stdout).toContain(`stdio: ${ECHO_SERVER}`);

    const json = await cat(home, ["mcp", "keeper", "status", "--json"]);
    const status = JSON.parse(json.stdout) as { pid: number; connections: { name: string; calls: number; fingerprint: string }[] };
    expect(status.pid).toBe(keeper.pid);
    expect(status.connections).toEqual([expect.objectContaining({ name: "echo", calls: 2, fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/) })]);
  });

  test("status with no keeper running says so and starts none", async () => {
    const home = newHome();
    const { exitCode } = await cat(home, ["mcp", "keeper", "status"]);
    expect(exitCode).toBe(0);
    expect([keeperProcessesOf(home), existsSync(pathsOf(home).info)]).toEqual([[], false]);
  });

  test("stop ends the keeper and every server it held, and removes its socket and keeper.json", async () => {
    const home = newHome();
    const { config, marker } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const keeper = await waitForKeeper(home);
    expect(serverPids(marker)).toHaveLength(1);
    const stop = await cat(home, ["mcp", "keeper", "stop"]);
    expect(stop.exitCode).toBe(0);
    await expectGone(home, marker, keeper.pid);
  });

  test("SIGTERM to the keeper: it closes every server, and removes its socket and keeper.json", async () => {
    const home = newHome();
    const { config, marker } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const keeper = await waitForKeeper(home);
    process.kill(keeper.pid, "SIGTERM");
    await expectGone(home, marker, keeper.pid);
  });
});

test("a changed entry (its env) gets a new server; the old one stays warm until it idles out", async () => {
  const home = newHome();
  const { config, marker } = echoConfig({ env: { FLAVOUR: "one" } });
  expect((await callEcho(home, config)).stdout).toBe("hi\n");
  const [first] = serverPids(marker);
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: ECHO_SERVER, args: [marker], env: { FLAVOUR: "two" } } } }));
  expect((await callEcho(home, config, "again")).stdout).toBe("again\n");
  const now = serverPids(marker);
  expect(now).toHaveLength(2);
  expect(now).toContain(first!);
  const status = JSON.parse((await cat(home, ["mcp", "keeper", "status", "--json"])).stdout) as { connections: { name: string; fingerprint: string }[] };
  const echoes = status.connections.filter((c) => c.name === "echo");
  expect(echoes).toHaveLength(2);
  expect(echoes[0]!.fingerprint).not.toBe(echoes[1]!.fingerprint);
});

describe("the command's own launch context is part of the fingerprint", () => {
  const changes: [string, (i: number) => [Record<string, string>, string | undefined]][] = [
    ["a variable of the command's environment (the server inherits it)", (i) => [{ KEEPER_TEST_FLAVOUR: `flavour-${i}` }, undefined]],
    ["the working directory (the server's, and its root)", () => [{}, tempDir()]],
  ];
  for (const [what, change] of changes) {
    test(`${what}: another server; the same again: the same server`, async () => {
      const home = newHome();
      const { config, marker } = echoConfig();
      const [envOne, cwdOne] = change(1);
      const [envTwo, cwdTwo] = change(2);
      expect((await callEcho(home, config, "one", envOne, cwdOne)).stdout).toBe("one\n");
      expect((await callEcho(home, config, "two", envTwo, cwdTwo)).stdout).toBe("two\n");
      expect(serverPids(marker)).toHaveLength(2);
      expect((await callEcho(home, config, "one again", envOne, cwdOne)).stdout).toBe("one again\n");
      expect(serverPids(marker)).toHaveLength(2);
    });
  }
});

describe("the command keeps to itself", () => {
  const cases: [string, string[], Record<string, string>][] = [
    ["--no-keeper", ["--no-keeper"], {}],
    ["CAT_CODE_NO_KEEPER=1", [], { CAT_CODE_NO_KEEPER: "1" }],
  ];
  for (const [what, flags, env] of cases) {
    test(`${what}: the call answers, no keeper starts, and no server is left`, async () => {
      const home = newHome();
      const { config, marker } = echoConfig();
      const result = await cat(home, ["mcp", "call", "echo", "echo", "text=hi", "--mcp-config", config, ...flags], env);
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
      expect([keeperProcessesOf(home), existsSync(pathsOf(home).socket), existsSync(pathsOf(home).info)]).toEqual([[], false, false]);
      await waitFor(() => serverPids(marker).length === 0, "the command's own server to be closed");
    });
  }

  test("keepAlive: 0 on the entry: the command connects that server itself and closes it", async () => {
    const home = newHome();
    const { config, marker } = echoConfig({ keepAlive: 0 });
    const result = await callEcho(home, config);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
    await waitFor(() => serverPids(marker).length === 0, "the command's own server to be closed");
  });
});
