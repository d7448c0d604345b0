/**
 * Issue 18's failure-proofing, through the compiled binary and real keepers: a keeper that is gone,
 * hung or of another version is replaced and the command still prints its answer; a server that
 * crashed between two calls is started again; commands started at once share one keeper; a command
 * ended by a signal mid-call has its call cancelled at the server, which stays warm.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { isAlive, keeperProcessesOf, pathsOf, readKeeperInfo, waitForExit, waitForKeeper } from "../../helpers/keeper-home.ts";
import { compiledBinary } from "../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { callEcho, cat, echoConfig, newHome, serverPids, startFakeKeeper, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

/** Only catches a hang: a replaced keeper costs about 1 s (hung) or 2 s (another version) on top of the call. */
const BOUND_MS = 15_000;

async function timed<T>(body: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await body();
  return [value, performance.now() - started];
}

describe("a keeper that cannot serve is replaced, and the command still answers", () => {
  test("gone (killed: its socket file and keeper.json left behind): a new keeper serves the call", async () => {
    const home = newHome();
    const { config, marker } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const old = await waitForKeeper(home);
    process.kill(old.pid, "SIGKILL");
    await waitForExit(old.pid, "the killed keeper to exit");
    expect(existsSync(pathsOf(home).socket)).toBe(true);

    const again = await callEcho(home, config, "again");
    expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, "again\n", ""]);
    const fresh = await waitForKeeper(home);
    expect(fresh.pid).not.toBe(old.pid);
    expect(keeperProcessesOf(home)).toEqual([fresh.pid]);
    // The dead keeper's server saw its stdin close and went; the new keeper started one of its own.
    await waitFor(() => serverPids(marker).length === 1, () => `one echo server (have ${serverPids(marker)})`);
  });

  test("hung (a fake that accepts and never answers): the call answers within about a second more", async () => {
    const home = newHome();
    const fake = await startFakeKeeper(home, "--hang");
    const { config } = echoConfig();
    const [result, ms] = await timed(() => callEcho(home, config));
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(fake.output()).toContain('"method":"hello"');
    // Not a cat-code keeper by its command line: left alone (never kill a process that is not ours), but no longer asked.
    expect(isAlive(fake.pid)).toBe(true);
    const fresh = await waitForKeeper(home, "a real keeper in place of the hung one");
    expect(fresh.pid).not.toBe(fake.pid);
  });

  test("hung (a real keeper stopped with SIGSTOP): it is killed and replaced, and its server goes", async () => {
    const home = newHome();
    const { config, marker } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const old = await waitForKeeper(home);
    const [oldServer] = serverPids(marker);
    process.kill(old.pid, "SIGSTOP");
    try {
      const [result, ms] = await timed(() => callEcho(home, config, "again"));
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "again\n", ""]);
      expect(ms).toBeLessThan(BOUND_MS);
      await waitForExit(old.pid, "the hung keeper to be killed");
      expect((await waitForKeeper(home)).pid).not.toBe(old.pid);
      await waitForExit(oldServer!, "the hung keeper's server to exit");
    } finally {
      if (isAlive(old.pid)) process.kill(old.pid, "SIGKILL");
    }
  });

  test("paused past hello's second, then resumed: the call reaches the server once, never again from the socket given up on", async () => {
    const home = newHome();
    const { marker } = echoConfig();
    const calls = join(tempDir("cat-code-calls-"), "server-input.log");
    // The server's input, kept: every tools/call it was sent, from any keeper.
    const config = writeConfig({ echo: { command: "sh", args: ["-c", `tee -a '${calls}' | '${ECHO_SERVER}' ${marker}`] } });
    const toolCalls = (text: string) => readFileSync(calls, "utf8").split("\n").filter((line) => line.includes('"tools/call"') && line.includes(`"${text}"`)).length;
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const keeper = await waitForKeeper(home);
    process.kill(keeper.pid, "SIGSTOP");
    try {
      const call = callEcho(home, config, "once");
      // No hello answer within the second: the command takes keeper.lock to replace it. Resumed now, the
      // keeper reads what the command sent before giving up on that socket.
      await waitFor(() => existsSync(pathsOf(home).lock), "the command to give the paused keeper up and take keeper.lock");
      process.kill(keeper.pid, "SIGCONT");
      const result = await call;
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "once\n", ""]);
      expect(toolCalls("once")).toBe(1);
    } finally {
      if (isAlive(keeper.pid)) process.kill(keeper.pid, "SIGCONT");
    }
  });

  test("of another version: asked to stop, and a keeper of this version serves the call", async () => {
    const home = newHome();
    const fake = await startFakeKeeper(home, "--version=0.0.1-older");
    const { config } = echoConfig();
    const [result, ms] = await timed(() => callEcho(home, config));
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(fake.output()).toContain('"method":"stop"');
    expect(await fake.exited).toBe(0);
    const fresh = await waitForKeeper(home);
    expect([fresh.version, fresh.pid === fake.pid]).toEqual([pkg.version, false]);
  });
});

test("a server that crashed between two calls is started again for the next one", async () => {
  const home = newHome();
  const { config, marker } = echoConfig();
  expect((await callEcho(home, config)).stdout).toBe("hi\n");
  const [first] = await waitFor(() => (serverPids(marker).length === 1 ? serverPids(marker) : undefined), "the warm echo server");
  const keeper = readKeeperInfo(home)!;
  process.kill(first!, "SIGKILL");
  await waitForExit(first!, "the echo server to die");

  const again = await callEcho(home, config, "again");
  expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, "again\n", ""]);
  const now = serverPids(marker);
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(first);
  // The same keeper did it: a crashed server is the keeper's business, not a reason to replace it.
  expect(readKeeperInfo(home)!.pid).toBe(keeper.pid);
});

describe("commands started at once", () => {
  for (const count of [2, 10]) {
    test(`${count} calls at once with no keeper yet: all answer, and they start one keeper`, async () => {
      const home = newHome();
      const { config } = echoConfig();
      const results = await Promise.all(Array.from({ length: count }, (_, i) => callEcho(home, config, `call-${i}`)));
      expect(results.map((r) => [r.exitCode, r.stdout, r.stderr])).toEqual(results.map((_, i) => [0, `call-${i}\n`, ""]));
      const info = await waitForKeeper(home);
      expect(keeperProcessesOf(home)).toEqual([info.pid]);
    });
  }

  test("10 calls at once after the keeper died (its socket left): all answer, and one new keeper replaces it", async () => {
    const home = newHome();
    const { config } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const old = await waitForKeeper(home);
    process.kill(old.pid, "SIGKILL");
    await waitForExit(old.pid, "the killed keeper to exit");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => callEcho(home, config, `call-${i}`)));
    expect(results.map((r) => [r.exitCode, r.stdout, r.stderr])).toEqual(results.map((_, i) => [0, `call-${i}\n`, ""]));
    const fresh = await waitForKeeper(home);
    expect(fresh.pid).not.toBe(old.pid);
    expect(keeperProcessesOf(home)).toEqual([fresh.pid]);
  });

  test("10 calls at once on a warm keeper share its one server process", async () => {
    const home = newHome();
    const { config, marker } = echoConfig();
    expect((await callEcho(home, config)).stdout).toBe("hi\n");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => callEcho(home, config, `call-${i}`)));
    expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `call-${i}\n`));
    expect(serverPids(marker)).toHaveLength(1);
  });
});

test("a keeper.json whose token the keeper does not know (hello refused): that keeper is replaced", async () => {
  const home = newHome();
  const { config } = echoConfig();
  expect((await callEcho(home, config)).stdout).toBe("hi\n");
  const old = await waitForKeeper(home);
  writeFileSync(pathsOf(home).info, JSON.stringify({ ...old, token: "cd".repeat(32) }), { mode: 0o600 });
  const again = await callEcho(home, config, "again");
  expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, "again\n", ""]);
  await waitForExit(old.pid, "the keeper that refused the token to be replaced");
  expect((await waitForKeeper(home)).pid).not.toBe(old.pid);
});

test("no socket possible (a CAT_CODE_HOME too long for a socket path): the call runs cold, same answer, no warning", async () => {
  const home = join(newHome(), "a-home-folder-with-a-rather-long-name".repeat(3));
  mkdirSync(home, { recursive: true });
  const { config, marker } = echoConfig();
  const result = await callEcho(home, config);
  expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
  expect(keeperProcessesOf(home)).toEqual([]);
  await waitFor(() => serverPids(marker).length === 0, "the command's own server to be closed");
  // Known before any start (MAX_SOCKET_PATH_BYTES): no keeper is spawned to fail, and no call waits for one.
  expect(existsSync(pathsOf(home).log)).toBe(false);
});

describe("a command that goes away mid-call", () => {
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    test(`${signal} to a warm mcp call: exit ${code}, the server is told the call is cancelled, and stays warm for the next`, async () => {
      const home = newHome();
      const record = join(tempDir(), "received.ndjson");
      const config = writeConfig({ busy: { command: BUN, args: [CHAOS_SERVER, `--record=${record}`] } });
      const args = ["mcp", "call", "busy", "--mcp-config", config];
      expect((await cat(home, [...args, "echo", "text=warm"])).stdout).toBe("warm\n");
      const [server] = serverPids(record);

      // The environment `cat` gives (the launch context is part of the fingerprint: the same server, or this proves nothing).
      const env = { ...process.env, CAT_CODE_HOME: home } as Record<string, string>;
      delete env.CAT_CODE_NO_KEEPER;
      const child = Bun.spawn([await compiledBinary(), ...args, "sleep", "ms=60000"], { env, cwd: REPO, stdout: "pipe", stderr: "pipe" });
      await waitFor(() => existsSync(record) && readFileSync(record, "utf8").includes('"name":"sleep"'), "the sleep call to reach the server");
      expect(serverPids(record)).toEqual([server!]);
      child.kill(signal);
      expect(await child.exited).toBe(code);
      await waitFor(() => readFileSync(record, "utf8").includes('"method":"notifications/cancelled"'), "notifications/cancelled at the server");

      const again = await cat(home, [...args, "echo", "text=again"]);
      expect([again.exitCode, again.stdout]).toEqual([0, "again\n"]);
      expect(serverPids(record)).toEqual([server!]);
    });
  }
});
