import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { runKeeper, type RunningKeeper } from "../../../src/keeper/keeper-server.ts";
import { ECHO_SERVER, tempDir, uniqueSeconds } from "../../helpers/paths.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { stdioServer, TestKeeperClient } from "../../helpers/keeper-test-client.ts";

/**
 * The keeper's timers, in this process with a fake clock: a connection closes after its keep-alive
 * without use, and the keeper exits once empty past its grace. Nothing here waits on real time.
 */
const savedHome = process.env.CAT_CODE_HOME;
const running: RunningKeeper[] = [];
const tags: string[] = [];

beforeAll(() => {
  // The keeper's era memory and credentials live in CAT_CODE_HOME: never the user's.
  process.env.CAT_CODE_HOME = tempDir("cat-code-keeper-home-");
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((keeper) => keeper.stop()));
  for (const tag of tags.splice(0)) killAll(await findProcesses(tag));
});

afterAll(() => {
  if (savedHome === undefined) delete process.env.CAT_CODE_HOME;
  else process.env.CAT_CODE_HOME = savedHome;
});

async function start(clock: FakeClock, options: { emptyGraceMs?: number; env?: Record<string, string> } = {}) {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  const keeper = await runKeeper({ paths, version: "test", clock, emptyGraceMs: options.emptyGraceMs ?? 1000, ownershipCheckMs: 0, warm: { env: options.env ?? {} } });
  running.push(keeper);
  return { paths, keeper };
}

function tag(): string {
  const value = uniqueSeconds();
  tags.push(value);
  return value;
}

async function connectionsOf(paths: ReturnType<typeof keeperPaths>): Promise<string[]> {
  const client = await TestKeeperClient.greeted(paths);
  const answer = await client.request({ op: "status" });
  client.close();
  await client.closed;
  return "ok" in answer && "connections" in answer.ok ? answer.ok.connections.map((c) => c.name) : [];
}

test("a connection is closed after its entry's keepAlive without use, and not a moment before", async () => {
  const clock = new FakeClock();
  const { paths } = await start(clock);
  const marker = tag();
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [marker], { keepAlive: 5 })], roots: [process.cwd()] });
  await client.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
  client.close();
  await client.closed;

  clock.advance(4999);
  expect(await connectionsOf(paths)).toEqual(["echo"]);
  expect(await findProcesses(marker)).toHaveLength(1);
  clock.advance(1);
  expect(await connectionsOf(paths)).toEqual([]);
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

test("without keepAlive in the entry, CAT_CODE_KEEP_ALIVE of the command's environment sets it", async () => {
  const clock = new FakeClock();
  const { paths } = await start(clock, { env: { CAT_CODE_KEEP_ALIVE: "600" } });
  const server = stdioServer("echo", ECHO_SERVER, [tag()]);
  server.launch.env.CAT_CODE_KEEP_ALIVE = "20";
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [server], roots: [process.cwd()] });
  clock.advance(19_999);
  expect(await connectionsOf(paths)).toEqual(["echo"]);
  clock.advance(1);
  expect(await connectionsOf(paths)).toEqual([]);
  client.close();
});

test("a connection in use is never closed for idleness: the keep-alive counts from the end of the last use", async () => {
  const clock = new FakeClock();
  const { paths } = await start(clock);
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [tag()], { keepAlive: 10 })], roots: [process.cwd()] });
  clock.advance(9000);
  await client.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
  clock.advance(9000);
  expect(await connectionsOf(paths)).toEqual(["echo"]);
  clock.advance(1000);
  expect(await connectionsOf(paths)).toEqual([]);
  client.close();
});

test("an empty keeper exits after its grace, removing its socket and keeper.json; a command connected keeps it", async () => {
  const clock = new FakeClock();
  const { paths, keeper } = await start(clock, { emptyGraceMs: 30_000 });
  let exited = false;
  void keeper.done.then(() => (exited = true));

  const client = await TestKeeperClient.greeted(paths);
  // Connected: no exit timer at all, however long it waits.
  expect(clock.pending()).toBe(0);
  clock.advance(60_000);
  expect(exited).toBe(false);
  client.close();
  await client.closed;
  // The socket's close reaches the keeper after the client sees it: wait for its timer to be set.
  await waitFor(() => clock.pending() > 0, "the keeper to start its empty grace");
  clock.advance(29_999);
  expect(clock.pending()).toBe(1);
  clock.advance(1);
  expect(clock.pending()).toBe(0);
  await keeper.done;
  expect(existsSync(paths.socket)).toBe(false);
  expect(existsSync(paths.info)).toBe(false);
});

test("past the bound of connections the least recently used idle one is closed", async () => {
  const clock = new FakeClock();
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  const keeper = await runKeeper({ paths, version: "test", clock, ownershipCheckMs: 0, warm: { maxConnections: 2, env: {} } });
  running.push(keeper);
  const client = await TestKeeperClient.greeted(paths);
  for (const name of ["a", "b", "c"]) {
    await client.request({ op: "connect", servers: [stdioServer(name, ECHO_SERVER, [tag()])], roots: [process.cwd()] });
    clock.advance(1000);
  }
  expect((await connectionsOf(paths)).sort()).toEqual(["b", "c"]);
  client.close();
});

test("a keeper whose keeper.json is another's (it was replaced) closes its servers and stops at its next check", async () => {
  const clock = new FakeClock();
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  const keeper = await runKeeper({ paths, version: "test", clock, ownershipCheckMs: 60_000, warm: { env: {} } });
  running.push(keeper);
  const marker = tag();
  const client = await TestKeeperClient.greeted(paths);
  await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [marker])], roots: [process.cwd()] });
  clock.advance(60_000);
  // Still its own: nothing happens, the server stays.
  expect(await findProcesses(marker)).toHaveLength(1);
  const info = JSON.parse(readFileSync(paths.info, "utf8"));
  writeFileSync(paths.info, JSON.stringify({ ...info, token: "b".repeat(64) }), { mode: 0o600 });
  clock.advance(60_000);
  await keeper.done;
  expect(await waitForNoProcesses(marker)).toEqual([]);
  // keeper.json is the other keeper's: left alone.
  expect(JSON.parse(readFileSync(paths.info, "utf8")).token).toBe("b".repeat(64));
  client.close();
});
