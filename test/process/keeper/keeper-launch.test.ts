import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KeeperClient } from "../../../src/keeper/keeper-client.ts";
import { KeeperFolderError } from "../../../src/keeper/keeper-folder.ts";
import { findOrStartKeeper, findOrStartKeeperWith, type KeeperLaunchOptions } from "../../../src/keeper/keeper-launch.ts";
import { keeperPaths, type KeeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { isKeeperOf, isKeeperProcess } from "../../../src/keeper/keeper-process.ts";
import { runKeeper, type RunningKeeper } from "../../../src/keeper/keeper-server.ts";
import { VERSION } from "../../../src/version.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { BUN, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { FakeKeeper, staleSocket } from "./keeper-launch-fakes.ts";

const cleanups: Array<() => unknown> = [];
// A command's umask is the user's. In one `bun test` process, keepers other files ran in-process can
// leave it at 0177 (keeper-socket.ts's save/restore around an await interleaves: reported).
beforeAll(() => process.umask(0o022));
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp home, a fake clock, and a spawn that starts a real keeper in this process (and counts). */
function setup(extra: Partial<KeeperLaunchOptions> = {}) {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir() });
  const clock = new FakeClock();
  const started: RunningKeeper[] = [];
  let spawns = 0;
  const kills: Array<[number, string]> = [];
  const options: KeeperLaunchOptions = {
    paths,
    version: VERSION,
    clock,
    spawn: (p: KeeperPaths) => {
      spawns++;
      void runKeeper({ paths: p, version: VERSION }).then((keeper) => {
        started.push(keeper);
        cleanups.push(() => keeper.stop());
      });
    },
    kill: (pid, signal) => kills.push([pid, signal]),
    ...extra,
  };
  return { paths, clock, options, started, kills, spawns: () => spawns };
}

/** Runs the launch to its end, moving the fake clock as the test polls: no real waiting on timeouts. */
async function launched(promise: Promise<KeeperClient>, clock: FakeClock, step = 50): Promise<KeeperClient> {
  let settled: { client?: KeeperClient; error?: unknown } | undefined;
  promise.then((client) => (settled = { client }), (error) => (settled = { error }));
  await waitFor(() => {
    clock.advance(step);
    return settled;
  }, "the launch to settle");
  if (settled!.error) throw settled!.error;
  cleanups.push(() => settled!.client!.close());
  return settled!.client!;
}

async function statusOf(client: KeeperClient): Promise<number> {
  return (await client.request({ op: "status" })).pid;
}

/** findOrStartKeeperWith, `status` as the request sent right behind hello: the client, and the pid that answered it. */
async function launchedWith(options: KeeperLaunchOptions, clock: FakeClock): Promise<{ client: KeeperClient; firstPid: Promise<number | undefined> }> {
  let first: Promise<{ pid: number }> | undefined;
  const client = await launched(
    findOrStartKeeperWith(options, (c) => {
      const status = c.request({ op: "status" });
      status.catch(() => {}); // Dropped when the keeper found is not ready.
      return status;
    }).then((found) => {
      first = found.first;
      return found.client;
    }),
    clock,
  );
  return { client, firstPid: first ? first.then((status) => status.pid) : Promise.resolve(undefined) };
}

describe("finding or starting the keeper", () => {
  test("no keeper: one is started, and the command gets a greeted connection", async () => {
    const { options, clock, spawns } = setup();
    const client = await launched(findOrStartKeeper(options), clock);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("a keeper of this version that answers is used: nothing is started", async () => {
    const { options, clock, spawns } = setup();
    await launched(findOrStartKeeper(options), clock);
    const second = await launched(findOrStartKeeper(options), clock);
    expect(spawns()).toBe(1);
    expect(await statusOf(second)).toBe(process.pid);
  });

  test("a socket left by a killed keeper: a new keeper starts on it", async () => {
    const { options, clock, paths, spawns } = setup();
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    await staleSocket(paths);
    expect(existsSync(paths.socket)).toBe(true);
    const client = await launched(findOrStartKeeper(options), clock);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("a hung keeper (accepts, never answers) is signalled TERM then KILL, its socket removed, and replaced", async () => {
    const { options, clock, paths, kills, spawns } = setup({ isKeeper: (pid) => pid === 4242 });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const hung = await FakeKeeper.start(paths, { answers: false });
    cleanups.push(() => hung.close());
    const client = await launched(findOrStartKeeper(options), clock);
    expect(hung.requests.map((r) => r.op)).toContain("hello");
    // The fake "process" never goes away, so the grace ends in SIGKILL.
    expect(kills).toEqual([
      [4242, "SIGTERM"],
      [4242, "SIGKILL"],
    ]);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("a hung keeper whose pid is no keeper (reused by another process) is never signalled", async () => {
    const { options, clock, paths, kills, spawns } = setup({ isKeeper: () => false });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const hung = await FakeKeeper.start(paths, { answers: false });
    cleanups.push(() => hung.close());
    const client = await launched(findOrStartKeeper(options), clock);
    expect(kills).toEqual([]);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("a keeper of another version is asked to stop, and a new one starts when its socket is gone", async () => {
    const { options, clock, paths, kills, spawns } = setup({ isKeeper: () => true });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const old = await FakeKeeper.start(paths, { answers: true, version: "0.0.1-old" });
    cleanups.push(() => old.close());
    const client = await launched(findOrStartKeeper(options), clock);
    // Looked at once, and again under the lock (another command may have replaced it meanwhile); stopped once.
    expect(old.requests.map((r) => r.op)).toEqual(["hello", "hello", "stop"]);
    expect(kills).toEqual([]); // It stopped when asked: no signal needed.
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("a command's first request goes right behind hello, and a running keeper of this version serves it: nothing is started", async () => {
    const { options, clock, spawns } = setup();
    await launched(findOrStartKeeper(options), clock);
    const { firstPid } = await launchedWith(options, clock);
    expect(await firstPid).toBe(process.pid);
    expect(spawns()).toBe(1);
  });

  test("a keeper of this version (by its keeper.json) that does not answer hello got the first request right behind it; the request is made again on the keeper that replaces it", async () => {
    const { options, clock, paths, spawns } = setup({ isKeeper: (pid) => pid === 4242 });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const hung = await FakeKeeper.start(paths, { answers: false, version: options.version });
    cleanups.push(() => hung.close());
    const { firstPid } = await launchedWith(options, clock);
    // Sent before hello's answer (which never came), not after.
    expect(hung.requests.map((r) => r.op).slice(0, 2)).toEqual(["hello", "status"]);
    expect(spawns()).toBe(1);
    expect(await firstPid).toBe(process.pid);
  });

  test("a keeper whose keeper.json names another version never gets the first request: it goes to the new keeper only", async () => {
    const { options, clock, paths, spawns } = setup({ isKeeper: () => true });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const old = await FakeKeeper.start(paths, { answers: true, version: "0.0.1-old" });
    cleanups.push(() => old.close());
    const { firstPid } = await launchedWith(options, clock);
    expect(old.requests.map((r) => r.op)).toEqual(["hello", "hello", "stop"]);
    expect(spawns()).toBe(1);
    expect(await firstPid).toBe(process.pid);
  });

  test("a keeper of the line protocol before JSON-RPC (it refuses hello and closes) is signalled TERM then KILL and replaced", async () => {
    const { options, clock, paths, kills, spawns } = setup({ isKeeper: (pid) => pid === 4242 });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const old = await FakeKeeper.start(paths, { answers: "protocol-2" });
    cleanups.push(() => old.close());
    const client = await launched(findOrStartKeeper(options), clock);
    expect(old.requests.map((r) => r.op)).toContain("hello");
    // The fake "process" never goes away, so the grace ends in SIGKILL.
    expect(kills).toEqual([
      [4242, "SIGTERM"],
      [4242, "SIGKILL"],
    ]);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
  });

  test("five commands starting at once start one keeper (keeper.lock), and all five get it", async () => {
    const { options, clock, spawns } = setup();
    const clients = await Promise.all(Array.from({ length: 5 }, () => launched(findOrStartKeeper(options), clock, 5)));
    expect(spawns()).toBe(1);
    for (const client of clients) expect(await statusOf(client)).toBe(process.pid);
  });

  test("a keeper.lock left by a command that died is broken, and the keeper starts", async () => {
    const { options, clock, paths, spawns } = setup();
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const dead = Bun.spawn([BUN, "-e", "0"]);
    await dead.exited;
    writeFileSync(paths.lock, `${dead.pid} ${Date.now()} gone`, { mode: 0o600 });
    const client = await launched(findOrStartKeeper(options), clock);
    expect(spawns()).toBe(1);
    expect(await statusOf(client)).toBe(process.pid);
    expect(existsSync(paths.lock)).toBe(false);
  });

  test("a keeper that never comes up: the launch gives up (the command then runs cold), the lock is released", async () => {
    const { options, clock, paths } = setup({ spawn: () => {} });
    await expect(launched(findOrStartKeeper(options), clock)).rejects.toThrow(/did not answer within 3000 ms/);
    expect(existsSync(paths.lock)).toBe(false);
  });
});

describe("the keeper's folder", () => {
  test("run/ is created 0700; a run/ of ours open to others is tightened", async () => {
    const first = setup();
    await launched(findOrStartKeeper(first.options), first.clock);
    expect(statSync(first.paths.folder).mode & 0o777).toBe(0o700);

    const second = setup();
    mkdirSync(second.paths.folder, { recursive: true });
    chmodSync(second.paths.folder, 0o777);
    await launched(findOrStartKeeper(second.options), second.clock);
    expect(statSync(second.paths.folder).mode & 0o777).toBe(0o700);
  });

  test("a socket others may use is refused with the path and the fix: nothing is started or contacted", async () => {
    const { options, clock, paths, spawns } = setup();
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    writeFileSync(paths.socket, "", { mode: 0o666 });
    chmodSync(paths.socket, 0o666);
    const error = await launched(findOrStartKeeper(options), clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeeperFolderError);
    expect((error as Error).message).toContain(paths.socket);
    expect(spawns()).toBe(0);
  });
});

describe("telling a keeper's pid from any other", () => {
  test("only a process whose command line is a cat-code keeper is one", async () => {
    const dir = tempDir();
    const main = join(dir, "main.ts");
    writeFileSync(main, "setInterval(() => {}, 1000);\n");
    const keeper = Bun.spawn([BUN, main, "mcp", "keeper", "run"], { stdout: "ignore" });
    const other = Bun.spawn([BUN, main, "mcp", "list"], { stdout: "ignore" });
    cleanups.push(() => keeper.kill("SIGKILL"), () => other.kill("SIGKILL"));
    await waitFor(() => isKeeperProcess(keeper.pid), "the child's command line to show");
    expect(isKeeperProcess(other.pid)).toBe(false);
    expect(isKeeperProcess(process.pid)).toBe(false);
    keeper.kill("SIGKILL");
    await keeper.exited;
    expect(isKeeperProcess(keeper.pid)).toBe(false);
  });

  test("a keeper is this home's only by its own CAT_CODE_HOME (absolute), or else by working in this home's run/", async () => {
    const dir = tempDir();
    const main = join(dir, "main.ts");
    writeFileSync(main, "setInterval(() => {}, 1000);\n");
    const [home, elsewhere] = [tempDir(), tempDir()];
    const paths = keeperPaths({ CAT_CODE_HOME: home });
    mkdirSync(paths.folder);
    mkdirSync(join(elsewhere, "run"));
    const spawnKeeperLike = (env: Record<string, string>, cwd: string) => {
      const child = Bun.spawn([BUN, main, "mcp", "keeper", "run"], { stdout: "ignore", env: { PATH: process.env.PATH ?? "", ...env }, cwd });
      cleanups.push(() => child.kill("SIGKILL"));
      return child.pid;
    };
    const byHome = spawnKeeperLike({ CAT_CODE_HOME: home }, dir);
    const byFolder = spawnKeeperLike({}, paths.folder);
    const relative = spawnKeeperLike({ CAT_CODE_HOME: "." }, paths.folder);
    const otherHome = spawnKeeperLike({ CAT_CODE_HOME: elsewhere }, paths.folder);
    const otherFolder = spawnKeeperLike({}, join(elsewhere, "run"));
    for (const pid of [byHome, byFolder, relative, otherHome, otherFolder]) await waitFor(() => isKeeperProcess(pid), "the child's command line to show");
    expect([byHome, byFolder, relative, otherHome, otherFolder].map((pid) => isKeeperOf(pid, paths))).toEqual([true, true, true, false, false]);
    expect(isKeeperOf(process.pid, paths)).toBe(false);
  });
});
