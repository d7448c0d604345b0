/**
 * A keeper that hangs after `hello` (its event loop stuck, a bug) must not hang the command: while a
 * connect or call runs, the keeper says `alive` every second, and a command that hears nothing at all
 * for KEEPER_SILENCE_MS gives up with a line naming the keeper. A slow server is not a hung keeper.
 */
import { afterEach, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { KeeperClient } from "../../../src/keeper/keeper-client.ts";
import { KEEPER_HEARTBEAT_MS, KEEPER_PROTOCOL, KEEPER_SILENCE_MS } from "../../../src/keeper/keeper-protocol.ts";
import { runKeeper } from "../../../src/keeper/keeper-server.ts";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { TextLineSplitter } from "../../../src/mcp/transport/text-line-splitter.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A JSON-RPC request the peer read. */
type Received = { id: number; method: string; params?: unknown };

/** A peer that reads requests and answers none of them, except by what `onRequest` writes. */
async function silentPeer(onRequest: (request: Received, socket: Socket) => void = () => {}): Promise<{ path: string; requests: Received[] }> {
  const path = join(tempDir(), "keeper.sock");
  const requests: Received[] = [];
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    const lines = new TextLineSplitter();
    socket.on("data", (chunk: Buffer) => lines.push(chunk, (line) => {
      const request = JSON.parse(line) as Received;
      requests.push(request);
      onRequest(request, socket);
    }));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { path, requests };
}

const call = { op: "call", server: "s", tool: "t", arguments: {}, elicitation: "decline" } as const;

test("a keeper silent for KEEPER_SILENCE_MS while a call waits fails the call, naming the keeper; not a moment before", async () => {
  const clock = new FakeClock();
  const { path, requests } = await silentPeer();
  const client = await KeeperClient.open(path, { timeoutMs: 5000, clock });
  cleanups.push(() => client.close());
  let settled: unknown;
  const pending = client.request(call).then(
    () => (settled = "answered"),
    (error: Error) => (settled = error.message),
  );
  await waitFor(() => requests.length === 1, "the call to reach the peer");
  clock.advance(KEEPER_SILENCE_MS - 1);
  await Promise.resolve();
  expect(settled).toBeUndefined();
  clock.advance(1);
  await pending;
  expect(settled).toBe("the connection keeper stopped answering (nothing for 10 s); stop it with: cat-code mcp keeper stop");
  expect(client.closed).toBe(true);
});

test("a keeper that keeps saying alive is waited for as long as the call takes", async () => {
  const clock = new FakeClock();
  let socketOfCall: Socket | undefined;
  const { path, requests } = await silentPeer((_request, socket) => (socketOfCall = socket));
  const client = await KeeperClient.open(path, { timeoutMs: 5000, clock });
  cleanups.push(() => client.close());
  let heard = 0;
  const answered = client.request(call, { onEvent: (event) => event.event === "alive" && heard++ });
  await waitFor(() => requests.length === 1, "the call to reach the peer");
  for (let second = 1; second <= 3 * (KEEPER_SILENCE_MS / 1000); second++) {
    socketOfCall!.write(`${JSON.stringify({ jsonrpc: "2.0", method: "keeper/event", params: { event: "alive" } })}\n`);
    await waitFor(() => heard === second, `alive number ${second}`);
    clock.advance(1000);
  }
  expect(client.closed).toBe(false);
  socketOfCall!.write(`${JSON.stringify({ jsonrpc: "2.0", id: requests[0]!.id, result: { result: { content: [], isError: false } } })}\n`);
  expect((await answered).result).toEqual({ content: [], isError: false });
});

test("a socket quiet between two requests is not a hung keeper", async () => {
  const clock = new FakeClock();
  const { path, requests } = await silentPeer((request, socket) => {
    if (request.method === "status") socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { version: "v", pid: 1, startedAt: 0, connections: [] } })}\n`);
  });
  const client = await KeeperClient.open(path, { timeoutMs: 5000, clock });
  cleanups.push(() => client.close());
  await client.request({ op: "status" });
  clock.advance(10 * KEEPER_SILENCE_MS);
  const second = client.request({ op: "status" });
  await waitFor(() => requests.length === 2, "the second request to arrive");
  expect((await second).connections).toEqual([]);
});

test("a real keeper says alive every KEEPER_HEARTBEAT_MS while a connect runs", async () => {
  const clock = new FakeClock();
  const home = tempDir();
  const paths = keeperPaths({ CAT_CODE_HOME: home });
  const keeper = await runKeeper({ paths, version: "test", clock, ownershipCheckMs: 0 });
  cleanups.push(() => keeper.stop());
  const lines: string[] = [];
  const socket = await Bun.connect({
    unix: paths.socket,
    socket: {
      data: (_s, chunk) => {
        lines.push(...new TextDecoder().decode(chunk).split("\n").filter(Boolean));
      },
    },
  });
  cleanups.push(() => socket.terminate());
  const { token } = JSON.parse(await Bun.file(paths.info).text()) as { token: string };
  const write = (message: object) => socket.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  write({ id: 1, method: "hello", params: { protocol: KEEPER_PROTOCOL, version: "test", token } });
  await waitFor(() => lines.length === 1, "hello's answer");
  // A server that takes its time to start: the connect runs while the clock moves.
  const sleeper = join(home, "slow-server.sh");
  // It reads initialize, never answers, and ends when its stdin closes (the keeper stopping).
  await Bun.write(sleeper, "#!/bin/sh\nread line\nread line\n");
  await Bun.spawn(["chmod", "+x", sleeper]).exited;
  const entry = { name: "slow", scope: "user", source: "test", ok: true, config: { type: "stdio", command: sleeper, args: [], env: {}, timeout: 60_000 } };
  const timersBefore = clock.pending();
  write({ id: 2, method: "connect", params: { servers: [{ entry, launch: { env: { PATH: process.env.PATH ?? "" }, cwd: home } }], roots: [home] } });
  // The heartbeat's timer is set the moment the keeper takes the connect up.
  await waitFor(() => clock.pending() > timersBefore, "the keeper to take the connect up");
  for (let beat = 1; beat <= 3; beat++) {
    clock.advance(KEEPER_HEARTBEAT_MS);
    await waitFor(() => lines.filter((line) => line.includes('"alive"')).length === beat, () => `heartbeat ${beat}: ${lines.join(" / ")}`);
  }
  expect(lines.filter((line) => line.includes('"alive"')).map((line) => JSON.parse(line))).toEqual(Array(3).fill({ jsonrpc: "2.0", method: "keeper/event", params: { event: "alive" } }));
});
