import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { ExitCode } from "../../../src/terminal/cli-error.ts";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { catCode, runBinary } from "../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir, uniqueSeconds } from "../../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { endKeeperProcess, startKeeperProcess, stdioServer, TestKeeperClient } from "../../helpers/keeper-test-client.ts";

/** `cat-code mcp keeper run|status|stop` as processes: signals, the user's commands, cancelled calls. */
const started: Subprocess[] = [];
const tags: string[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map(endKeeperProcess));
  for (const tag of tags.splice(0)) killAll(await findProcesses(tag));
});

async function keeper() {
  const running = await startKeeperProcess();
  started.push(running.process);
  return running;
}

function tag(): string {
  const value = uniqueSeconds();
  tags.push(value);
  return value;
}

test.each([
  ["SIGTERM", 143],
  ["SIGINT", 130],
  ["SIGHUP", 129],
] as const)("%s closes every server, removes the socket and keeper.json, and exits %d", async (signal, code) => {
  const { paths, process: child } = await keeper();
  const marker = tag();
  const client = await TestKeeperClient.greeted(paths);
  const answer = await client.request({
    op: "connect",
    servers: [stdioServer("one", ECHO_SERVER, [marker]), stdioServer("two", BUN, [CHAOS_SERVER, marker])],
    roots: [process.cwd()],
  });
  expect(answer).toMatchObject({ ok: { statuses: [{ state: "connected" }, { state: "connected" }] } });
  expect(await findProcesses(marker)).toHaveLength(2);

  child.kill(signal);
  expect(await child.exited).toBe(code);
  expect(await waitForNoProcesses(marker)).toEqual([]);
  expect(existsSync(paths.socket)).toBe(false);
  expect(existsSync(paths.info)).toBe(false);
});

test("mcp keeper status lists the connections (and --json); mcp keeper stop leaves no server behind", async () => {
  const { home, paths, process: child } = await keeper();
  const marker = tag();
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [marker])], roots: [process.cwd()] });
  await client.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
  client.close();
  const env = { CAT_CODE_HOME: home };

  const status = await runBinary(["mcp", "keeper", "status"], { env });
  expect(status.exitCode).toBe(0);
  expect(status.stdout).toMatch(new RegExp(`^keeper  pid ${child.pid}  version \\S+  up \\d+s\\n  echo  CONNECTED  age \\d+s  idle \\d+s  1 call\\(s\\)  rss \\d+(\\.\\d)? MB  [0-9a-f]{12}  \\(stdio: ${ECHO_SERVER} ${marker}\\)\\n$`));
  const json = JSON.parse((await runBinary(["mcp", "keeper", "status", "--json"], { env })).stdout);
  expect(json).toMatchObject({ running: true, pid: child.pid, connections: [{ name: "echo", state: "connected", calls: 1 }] });

  const stop = await runBinary(["mcp", "keeper", "stop"], { env });
  expect(stop).toMatchObject({ exitCode: 0, stdout: `Stopped the connection keeper (pid ${child.pid}) and its 1 server connection(s).\n` });
  // `stop` returns once the keeper has exited: its servers are gone by then.
  expect(await findProcesses(marker)).toEqual([]);
  expect(await child.exited).toBe(0);

  const none = await runBinary(["mcp", "keeper", "status"], { env });
  expect(none).toMatchObject({ exitCode: 0, stdout: "No connection keeper is running.\n" });
  expect(JSON.parse((await runBinary(["mcp", "keeper", "status", "--json"], { env })).stdout)).toEqual({ running: false });
  expect(await runBinary(["mcp", "keeper", "stop"], { env })).toMatchObject({ exitCode: 0, stdout: "No connection keeper is running.\n" });
});

test("a socket that closes mid-call cancels its call; the server stays warm for the next command", async () => {
  const { paths } = await keeper();
  const record = join(tempDir(), "record.ndjson");
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, `--record=${record}`, tag()]);
  const first = await TestKeeperClient.greeted(paths);
  await first.request({ op: "connect", servers: [server], roots: [process.cwd()] });
  void first.request({ op: "call", server: "chaos", tool: "sleep", arguments: { ms: 60_000 }, elicitation: "decline" });
  const recorded = () => (existsSync(record) ? readFileSync(record, "utf8") : "");
  await waitFor(() => recorded().includes('"sleep"'), "the call to reach the server");
  first.close();
  await waitFor(() => recorded().includes("notifications/cancelled"), () => `the server to be told the call was cancelled:\n${recorded()}`);

  const second = await TestKeeperClient.greeted(paths);
  await second.request({ op: "connect", servers: [server], roots: [process.cwd()] });
  expect(await second.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "still warm" }, elicitation: "decline" })).toMatchObject({
    ok: { result: { content: [{ text: "still warm" }] } },
  });
  expect(recorded().match(/"method":"initialize"/g)).toHaveLength(1);
  second.close();
});

test("notifications/cancelled gives up one call: it fails as cancelled, the socket goes on", async () => {
  const { paths } = await keeper();
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [stdioServer("chaos", BUN, [CHAOS_SERVER, tag()])], roots: [process.cwd()] });
  const target = client.upcomingId;
  const call = client.request({ op: "call", server: "chaos", tool: "sleep", arguments: { ms: 60_000 }, elicitation: "decline" });
  client.notify("notifications/cancelled", { requestId: target, reason: "the user gave it up" });
  expect(await call).toMatchObject({ id: target, error: { code: -32800 } });
  expect(await client.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "on" }, elicitation: "decline" })).toMatchObject({ ok: {} });
  client.close();
});

test("mcp keeper run in a folder that is not safe says which and what to do, in one line, and starts nothing", async () => {
  const home = tempDir("cat-code-keeper-");
  mkdirSync(join(home, "run"), { mode: 0o700 });
  writeFileSync(join(home, "run", "keeper.json"), "{}", { mode: 0o666 });
  chmodSync(join(home, "run", "keeper.json"), 0o666);
  const result = await runBinary(["mcp", "keeper", "run"], { env: { CAT_CODE_HOME: home } });
  expect(result).toEqual({
    exitCode: ExitCode.Unavailable,
    stdout: "",
    stderr: `error: ${join(home, "run", "keeper.json")} is open to other users (mode 666); remove it (cat-code mcp keeper stop, then rm ${join(home, "run", "keeper.json")})\n`,
  });
  expect(existsSync(join(home, "run", "keeper.sock"))).toBe(false);
});

test.skipIf(process.platform !== "linux")("the keeper works from its own folder, not the one it was started from, even with a relative CAT_CODE_HOME", async () => {
  const dir = tempDir("cat-code-keeper-");
  const child = Bun.spawn([...catCode(), "mcp", "keeper", "run"], {
    cwd: dir,
    env: { ...process.env, CAT_CODE_HOME: "home" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  started.push(child);
  const folder = join(dir, "home", "run");
  await waitFor(() => existsSync(join(folder, "keeper.sock")), "the keeper to serve");
  await waitFor(() => readlinkSync(`/proc/${child.pid}/cwd`) === folder, () => `its cwd to be ${folder}, not ${readlinkSync(`/proc/${child.pid}/cwd`)}`);
  const client = await TestKeeperClient.greeted(keeperPaths({ CAT_CODE_HOME: join(dir, "home") }));
  expect(await client.request({ op: "stop" })).toMatchObject({ ok: {} });
  expect(await child.exited).toBe(0);
  expect(existsSync(join(folder, "keeper.json"))).toBe(false);
});

test("mcp keeper status and stop on a hung socket give up within seconds; a pid that is not this home's keeper is not offered to kill", async () => {
  const home = tempDir("cat-code-keeper-");
  const paths = keeperPaths({ CAT_CODE_HOME: home });
  mkdirSync(paths.folder, { mode: 0o700 });
  // Accepts and never answers.
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(paths.socket, resolve));
  writeFileSync(paths.info, JSON.stringify({ pid: 4242, version: "x", protocol: 1, token: "a".repeat(64), startedAt: 0 }), { mode: 0o600 });
  try {
    for (const command of ["status", "stop"]) {
      const result = await runBinary(["mcp", "keeper", command], { env: { CAT_CODE_HOME: home }, timeoutMs: 10_000 });
      expect(result).toEqual({
        exitCode: ExitCode.Unavailable,
        stdout: "",
        // 4242 is no keeper of this home (keeper.json may name anyone's process): remove the files instead.
        stderr: `error: the connection keeper: ${paths.socket} did not answer within 2000 ms, and pid 4242 in ${paths.info} is not this home's keeper (do not kill it); remove both files: rm ${paths.socket} ${paths.info}\n`,
      });
    }
  } finally {
    silent.close();
  }
});
