/**
 * Nothing kept that a script did not ask for (issue 26), through the compiled binary and a real
 * keeper: an ad-hoc server runs for its command only unless `--keep-alive` or CAT_CODE_KEEP_ALIVE
 * asks; a kept HTTP connection holds no stream while idle, so its server can close gracefully at
 * once, and the next command gets through to the server that replaced it; a warm command declares
 * what the cold one would, so server-everything lists the same tools; `mcp keeper stop <server>`
 * gives one server a fresh start.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { keeperProcessesOf, pathsOf, waitForKeeper } from "../../helpers/keeper-home.ts";
import { BUN, ECHO_SERVER, EVERYTHING_SERVER, REPO, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";
import { cat, echoConfig, newHome, serverPids, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

const SDK_HTTP_SERVER = `${REPO}/fixtures/http/sdk-http-server.ts`;
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function keeperConnections(home: string): Promise<Array<{ name: string; calls: number }>> {
  const { stdout } = await cat(home, ["mcp", "keeper", "status", "--json"]);
  return (JSON.parse(stdout) as { connections?: Array<{ name: string; calls: number }> }).connections ?? [];
}

/** `--stdio` with an echo server whose processes carry a marker of their own (killed after the test if any is left). */
function adHocEcho(): { stdio: string; marker: string } {
  const { marker } = echoConfig();
  return { stdio: `${ECHO_SERVER} ${marker}`, marker };
}

describe("an ad-hoc server is the command's own unless it asks to keep it", () => {
  test("--stdio: the server is gone when the command ends, and no keeper starts", async () => {
    const home = newHome();
    const { stdio, marker } = adHocEcho();
    const result = await cat(home, ["mcp", "call", "--stdio", stdio, "echo", "text=once"]);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "once\n", ""]);
    await waitFor(() => serverPids(marker).length === 0, () => `the ad-hoc server to end (have ${serverPids(marker)})`);
    expect([keeperProcessesOf(home), existsSync(pathsOf(home).info)]).toEqual([[], false]);
  }, 20_000);

  test("--url: no keeper starts", async () => {
    const home = newHome();
    const server = await spawnServer([BUN, SDK_HTTP_SERVER], { ready: /PORT (\d+)/, path: "/mcp" });
    servers.push(server);
    const result = await cat(home, ["mcp", "call", "--url", server.url, "echo", "message=once"]);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "once\n", ""]);
    expect([keeperProcessesOf(home), existsSync(pathsOf(home).info)]).toEqual([[], false]);
  }, 20_000);

  for (const [how, flags, env] of [
    ["--keep-alive 60", ["--keep-alive", "60"], {}],
    ["CAT_CODE_KEEP_ALIVE=60", [], { CAT_CODE_KEEP_ALIVE: "60" }],
  ] as const) {
    test(`${how}: the server stays warm and the next command reuses it`, async () => {
      const home = newHome();
      const { stdio, marker } = adHocEcho();
      for (const text of ["one", "two"]) {
        const result = await cat(home, ["mcp", "call", "--stdio", stdio, "echo", `text=${text}`, ...flags], env);
        expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, `${text}\n`, ""]);
      }
      await waitForKeeper(home);
      expect(serverPids(marker)).toHaveLength(1);
      expect((await keeperConnections(home)).map((c) => [c.name, c.calls])).toEqual([["adhoc", 2]]);
    }, 20_000);
  }

  test("--keep-alive that is no whole number of seconds: a usage error naming it, nothing started", async () => {
    const home = newHome();
    const { stdio, marker } = adHocEcho();
    const result = await cat(home, ["mcp", "call", "--stdio", stdio, "echo", "text=x", "--keep-alive", "soon"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--keep-alive must be a whole number of seconds (0: not kept), got 'soon'");
    expect(result.stderr).not.toContain("    at ");
    expect(serverPids(marker)).toEqual([]);
  }, 20_000);
});

test("mcp keeper stop <server>: that server's connections end (a fresh one next time); the others stay warm", async () => {
  const home = newHome();
  const one = uniqueSeconds();
  const two = uniqueSeconds();
  const config = writeConfig({ one: { command: ECHO_SERVER, args: [one] }, two: { command: ECHO_SERVER, args: [two] } });
  for (const name of ["one", "two"]) expect((await cat(home, ["mcp", "call", name, "echo", "text=hi", "--mcp-config", config])).stdout).toBe("hi\n");
  const [first] = serverPids(one);
  expect(first).toBeDefined();

  const stop = await cat(home, ["mcp", "keeper", "stop", "one"]);
  expect([stop.exitCode, stop.stdout]).toEqual([0, "Stopped 1 warm connection(s) of 'one'; its next command starts it afresh.\n"]);
  await waitFor(() => serverPids(one).length === 0, "server one to end");
  expect(serverPids(two)).toHaveLength(1);
  expect((await keeperConnections(home)).map((c) => c.name)).toEqual(["two"]);

  expect((await cat(home, ["mcp", "keeper", "stop", "one"])).stdout).toBe("The connection keeper holds no server 'one'.\n");
  expect((await cat(home, ["mcp", "call", "one", "echo", "text=again", "--mcp-config", config])).stdout).toBe("again\n");
  expect(serverPids(one)).not.toContain(first!);
  expect(serverPids(one)).toHaveLength(1);
}, 20_000);

test("mcp tools on server-everything: the same bytes warm as cold (the warm connection declares what the cold command does)", async () => {
  const home = newHome();
  const config = writeConfig({ everything: { command: BUN, args: [EVERYTHING_SERVER, "stdio"] } });
  const tools = (...flags: string[]) => cat(home, ["mcp", "tools", "everything", "--mcp-config", config, ...flags]);
  const cold = await tools("--no-keeper");
  expect(cold.exitCode).toBe(0);
  expect(await tools()).toEqual(cold);
  expect(await tools()).toEqual(cold);
  await waitForKeeper(home);
  expect((await keeperConnections(home)).map((c) => c.name)).toEqual(["everything"]);
}, 30_000);

test("a kept HTTP connection holds nothing open while idle: the server closes gracefully at once, and the next command reaches its successor", async () => {
  const home = newHome();
  const start = (port = 0) => spawnServer([BUN, SDK_HTTP_SERVER, "--graceful", "--port", String(port)], { ready: /PORT (\d+)/, path: "/mcp" });
  const first = await start();
  servers.push(first);
  const call = (text: string) => cat(home, ["mcp", "call", "--url", first.url, "echo", `message=${text}`, "--keep-alive", "60"]);
  expect(await call("warm")).toEqual({ exitCode: 0, stdout: "warm\n", stderr: "" });
  expect((await keeperConnections(home)).map((c) => c.name)).toEqual(["adhoc"]);

  first.child.kill("SIGTERM");
  // A graceful close waits for every open stream: with the keeper's GET open it never comes.
  // Bounded by the test's own timeout only: a slow machine must not fail it, a hang still does.
  await waitFor(() => first.child.exitCode !== null, "the HTTP server to close gracefully", { timeoutMs: 30_000 });
  expect(first.child.exitCode).toBe(0);

  const second = await start(Number(new URL(first.url).port));
  servers.push(second);
  expect(await call("again")).toEqual({ exitCode: 0, stdout: "again\n", stderr: "" });
  expect((await keeperConnections(home)).map((c) => c.name)).toEqual(["adhoc"]);
}, 30_000);

test("a kept HTTP connection whose server is gone: the next command fails as a cold one does (exit 3, naming the unreachable URL), and nothing stale is kept", async () => {
  const home = newHome();
  const server = await spawnServer([BUN, SDK_HTTP_SERVER], { ready: /PORT (\d+)/, path: "/mcp" });
  servers.push(server);
  const call = (...flags: string[]) => cat(home, ["mcp", "call", "--url", server.url, "echo", "message=hi", "--keep-alive", "60", ...flags]);
  expect(await call()).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  await server.stop();
  const cold = await call("--no-keeper");
  expect(cold.exitCode).toBe(3);
  // Gone more than RELIST_AFTER_IDLE_MS ago, the listing finds it at connect (as cold); gone since, the call does.
  const warm = await call();
  expect([warm.exitCode, warm.stdout]).toEqual([3, ""]);
  expect(warm.stderr).toMatch(/^error: (cannot connect to MCP server 'adhoc'|calling 'echo' on 'adhoc' failed): cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNREFUSED/);
  expect(await keeperConnections(home)).toEqual([]);
}, 30_000);
