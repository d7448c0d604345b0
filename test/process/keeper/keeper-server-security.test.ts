import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { KeeperClient } from "../../../src/keeper/keeper-client.ts";
import { KeeperFolderError } from "../../../src/keeper/keeper-folder.ts";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { KEEPER_PROTOCOL } from "../../../src/keeper/keeper-protocol.ts";
import { runKeeper, type RunningKeeper } from "../../../src/keeper/keeper-server.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";
import { join } from "node:path";
import { BUN, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { TestKeeperClient, tokenOf } from "../../helpers/keeper-test-client.ts";

/** Who may talk to the keeper, and where it agrees to live. */
const savedHome = process.env.CAT_CODE_HOME;
const running: RunningKeeper[] = [];

beforeAll(() => {
  process.env.CAT_CODE_HOME = tempDir("cat-code-keeper-home-");
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((keeper) => keeper.stop()));
});
afterAll(() => {
  if (savedHome === undefined) delete process.env.CAT_CODE_HOME;
  else process.env.CAT_CODE_HOME = savedHome;
});

async function start(paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") }), maxLineBytes?: number) {
  const keeper = await runKeeper({ paths, version: "test", maxLineBytes });
  running.push(keeper);
  return { paths, keeper };
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

test("the folder is 0700, the socket and keeper.json 0600", async () => {
  const { paths } = await start();
  expect(modeOf(paths.folder)).toBe(0o700);
  expect(modeOf(paths.socket)).toBe(0o600);
  expect(modeOf(paths.info)).toBe(0o600);
  expect(tokenOf(paths)).toMatch(/^[0-9a-f]{64}$/);
});

test("a wrong token is answered with an error and the socket closed; so is a request before hello", async () => {
  const { paths } = await start();
  const wrong = await TestKeeperClient.open(paths.socket);
  const answer = await wrong.request({ op: "hello", protocol: KEEPER_PROTOCOL, version: "test", token: "0".repeat(64) });
  expect(answer).toEqual({ id: 1, error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining("wrong token"), keeper: true } });
  await wrong.closed;

  const early = await TestKeeperClient.open(paths.socket);
  expect(await early.request({ op: "status" })).toEqual({ id: 1, error: { code: ErrorCode.InvalidRequest, message: "say hello first", keeper: true } });
  await early.closed;
});

test("a command of another build (its hello names another version or protocol) is answered hello, status and close, never connect or call", async () => {
  const { paths } = await start();
  for (const hello of [{ protocol: KEEPER_PROTOCOL, version: "other" }, { protocol: KEEPER_PROTOCOL - 1, version: "test" }]) {
    const other = await TestKeeperClient.open(paths.socket);
    // All written at once, before hello's answer, as a command sends its first request behind hello:
    // what it means to this keeper may not be what the command meant.
    const greeting = other.request({ op: "hello", ...hello, token: tokenOf(paths) });
    const connect = other.request({ op: "connect", servers: [], roots: [paths.folder] });
    const call = other.request({ op: "call", server: "echo", tool: "echo", arguments: {}, elicitation: "decline" });
    expect(await greeting).toMatchObject({ ok: { version: "test" } });
    const refused = { error: { message: expect.stringContaining("another cat-code build"), keeper: true } };
    expect(await connect).toMatchObject(refused);
    expect(await call).toMatchObject(refused);
    expect(await other.request({ op: "status" })).toMatchObject({ ok: { version: "test", connections: [] } });
    expect(await other.request({ op: "close", server: "echo" })).toMatchObject({ ok: { closed: 0 } });
    other.close();
  }
});

test("a line longer than the bound is refused and the socket closed, before its newline comes", async () => {
  const { paths } = await start(undefined, 1024);
  const client = await TestKeeperClient.greeted(paths);
  client.sendLine("x".repeat(4096).slice(0, -1) + "x".repeat(10_000));
  await client.closed;
  expect(client.messages.at(-1)).toEqual({ id: null, error: { code: ErrorCode.InvalidRequest, message: "the command sent a line longer than 1024 bytes", keeper: true } });
});

test("a command whose line the keeper refuses is told why, not just that the socket closed", async () => {
  const { paths } = await start(undefined, 1024);
  const client = await KeeperClient.open(paths.socket, { timeoutMs: 5000 });
  const refused = client.request({ op: "hello", protocol: KEEPER_PROTOCOL, version: "test", token: "x".repeat(2048) });
  await expect(refused).rejects.toThrow("the connection keeper refused the connection: the command sent a line longer than 1024 bytes");
  expect(client.closed).toBe(true);
});

test("stop is obeyed though its answer cannot be written: a broken line right behind it ends the socket first", async () => {
  const { paths, keeper } = await start(undefined, 1024);
  let stopped = false;
  void keeper.done.then(() => (stopped = true));
  const client = await TestKeeperClient.greeted(paths);
  // One write: the keeper reads stop, then refuses the long line and ends the socket before stop's answer goes out.
  client.sendLine(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "stop", params: {} })}\n${"x".repeat(2048)}`);
  await client.closed;
  await waitFor(() => stopped, "the keeper to stop");
  expect(existsSync(paths.socket)).toBe(false);
});

test("a command of the line protocol before JSON-RPC is refused and its socket closed at once, not left waiting", async () => {
  const { paths } = await start();
  const old = await TestKeeperClient.open(paths.socket);
  old.sendLine(JSON.stringify({ id: 1, op: "hello", protocol: 2, version: "0.0.1", token: tokenOf(paths) }));
  await old.closed;
  expect(old.messages).toEqual([{ id: null, error: { code: ErrorCode.InvalidRequest, message: 'the command sent a message that is not JSON-RPC (missing "jsonrpc": "2.0")', keeper: true } }]);
});

test("a malformed request is answered with what was wrong, and the socket stays usable", async () => {
  const { paths } = await start();
  const client = await TestKeeperClient.greeted(paths);
  client.sendLine(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "connect", params: { servers: [{ entry: { name: "x" } }], roots: [] } }));
  client.sendLine(JSON.stringify({ jsonrpc: "2.0", id: "eight", method: "status", params: {} }));
  const status = await client.request({ op: "status" });
  expect(client.messages).toContainEqual({ id: "eight", error: { code: ErrorCode.InvalidRequest, message: "the keeper refused a request: its id must be a number", keeper: true } });
  expect(client.messages).toContainEqual({ id: 7, error: { code: ErrorCode.InvalidParams, message: expect.stringMatching(/^the keeper refused a request: servers\.0\.entry/), keeper: true } });
  expect(status).toMatchObject({ ok: { connections: [] } });
  expect(await client.request({ op: "connect", servers: [], roots: ["relative/folder"] })).toEqual({
    id: 3,
    error: { code: ErrorCode.InvalidParams, message: "the keeper refused a request: roots.0: must be an absolute path", keeper: true },
  });
  client.close();
});

test("a run folder of ours that is too open is tightened to 0700", async () => {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  mkdirSync(paths.folder, { mode: 0o755 });
  chmodSync(paths.folder, 0o777);
  await start(paths);
  expect(modeOf(paths.folder)).toBe(0o700);
});

test("a keeper.json that others may read is refused: the keeper does not start there", async () => {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  mkdirSync(paths.folder, { mode: 0o700 });
  writeFileSync(paths.info, "{}", { mode: 0o644 });
  chmodSync(paths.info, 0o644);
  const refused = runKeeper({ paths, version: "test" });
  await expect(refused).rejects.toThrow(KeeperFolderError);
  await expect(refused).rejects.toThrow(`${paths.info} is open to other users (mode 644)`);
});

test.skipIf(process.getuid?.() !== 0)("a run folder owned by another user is refused, and left as it is", async () => {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  mkdirSync(paths.folder, { mode: 0o700 });
  chownSync(paths.folder, 65534, 65534);
  await expect(runKeeper({ paths, version: "test" })).rejects.toThrow(`${paths.folder} belongs to another user (uid 65534)`);
  expect(statSync(paths.folder).uid).toBe(65534);
});

test("the socket of a live keeper is never taken over; a stale socket file is replaced", async () => {
  const { paths } = await start();
  await expect(runKeeper({ paths, version: "test" })).rejects.toThrow(`another keeper is running on ${paths.socket}`);
  const client = await TestKeeperClient.greeted(paths);
  expect(await client.request({ op: "status" })).toMatchObject({ ok: { version: "test" } });
  client.close();

  const stalePaths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  mkdirSync(stalePaths.folder, { mode: 0o700 });
  // A socket file nobody listens on any more: its process was killed.
  const dead = Bun.spawn([BUN, "-e", `require("node:net").createServer().listen(${JSON.stringify(stalePaths.socket)}); setInterval(() => {}, 1e6)`]);
  await waitFor(() => existsSync(stalePaths.socket), "the doomed listener's socket");
  dead.kill("SIGKILL");
  await dead.exited;
  chmodSync(stalePaths.socket, 0o600);
  await start(stalePaths);
  const fresh = await TestKeeperClient.greeted(stalePaths);
  expect(await fresh.request({ op: "status" })).toMatchObject({ ok: { version: "test" } });
  fresh.close();
});

test("a keeper replaced while it hung leaves the new keeper's socket and keeper.json alone when it stops", async () => {
  const { paths, keeper: old } = await start();
  // As if it hung and a command replaced it: its socket moved out of the way, a new keeper bound the path.
  renameSync(paths.socket, `${paths.socket}.old`);
  await start(paths);
  await old.stop();
  expect(existsSync(paths.socket)).toBe(true);
  const client = await TestKeeperClient.greeted(paths);
  expect(await client.request({ op: "status" })).toMatchObject({ ok: { pid: process.pid } });
  client.close();
});

test("of two keepers starting at the same moment one serves, the other says so, and keeper.json is the one that serves", async () => {
  const paths = keeperPaths({ CAT_CODE_HOME: tempDir("cat-code-keeper-") });
  const umaskBefore = process.umask();
  const outcomes = await Promise.allSettled([runKeeper({ paths, version: "test" }), runKeeper({ paths, version: "test" })]);
  const won = outcomes.filter((o): o is PromiseFulfilledResult<RunningKeeper> => o.status === "fulfilled").map((o) => o.value);
  running.push(...won);
  expect(won).toHaveLength(1);
  expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { message: `another keeper is running on ${paths.socket}; stop it first: cat-code mcp keeper stop` } });
  const client = await TestKeeperClient.greeted(paths);
  expect(await client.request({ op: "status" })).toMatchObject({ ok: { startedAt: won[0]!.startedAt } });
  client.close();
  expect(readdirSync(paths.folder).sort()).toEqual(["keeper.json", "keeper.sock"]);
  // Nothing of the start touched the process's umask (it is process-wide: two starts once left it 0177).
  expect(process.umask()).toBe(umaskBefore);
});

test("a CAT_CODE_HOME too deep for a socket path is refused with the fix, and leaves nothing behind", async () => {
  const paths = keeperPaths({ CAT_CODE_HOME: join(tempDir("cat-code-keeper-"), "d".repeat(100)) });
  await expect(runKeeper({ paths, version: "test" })).rejects.toThrow("is too long for a socket path (at most 103 bytes); set CAT_CODE_HOME to a shorter folder");
  expect(readdirSync(paths.folder)).toEqual([]);
});
