import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Subprocess } from "bun";
import { KEEPER_PROTOCOL } from "../../../src/keeper/keeper-protocol.ts";
import { VERSION } from "../../../src/version.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, uniqueSeconds } from "../../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../helpers/processes.ts";
import { endKeeperProcess, startKeeperProcess, stdioServer, TestKeeperClient, tokenOf } from "../../helpers/keeper-test-client.ts";

const started: Subprocess[] = [];
const markers: string[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map(endKeeperProcess));
  for (const marker of markers.splice(0)) killAll(await findProcesses(marker));
});

async function keeper(env: Record<string, string> = {}) {
  const running = await startKeeperProcess(env);
  started.push(running.process);
  return running;
}

function marker(): string {
  const value = uniqueSeconds();
  markers.push(value);
  return value;
}

test("hello, connect, call and stop over the socket: the server is gone after stop, and so are the socket and keeper.json", async () => {
  const { paths, process: child } = await keeper();
  const tag = marker();
  const client = await TestKeeperClient.open(paths.socket);
  const hello = await client.request({ op: "hello", protocol: KEEPER_PROTOCOL, version: VERSION, token: tokenOf(paths) });
  expect(hello).toMatchObject({ ok: { version: VERSION, pid: child.pid } });

  const connected = await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [tag])], roots: [process.cwd()] });
  expect(connected).toMatchObject({ ok: { statuses: [{ name: "echo", state: "connected", source: "/test/mcp.json" }] } });
  expect(await findProcesses(tag)).toHaveLength(1);

  const called = await client.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
  expect(called).toEqual({ id: 3, ok: { result: { content: [{ type: "text", text: "hi" }], isError: false } } });

  expect(await client.request({ op: "stop" })).toEqual({ id: 4, ok: {} });
  expect(await child.exited).toBe(0);
  expect(await waitForNoProcesses(tag)).toEqual([]);
  expect(existsSync(paths.socket)).toBe(false);
  expect(existsSync(paths.info)).toBe(false);
});

test("a second socket reuses the warm server: one server process serves both", async () => {
  const { paths } = await keeper();
  const tag = marker();
  const server = stdioServer("echo", ECHO_SERVER, [tag]);
  const first = await TestKeeperClient.greeted(paths);
  await first.request({ op: "connect", servers: [server], roots: [process.cwd()] });
  await first.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "one" }, elicitation: "decline" });
  first.close();
  await first.closed;
  const pids = await findProcesses(tag);
  expect(pids).toHaveLength(1);

  const second = await TestKeeperClient.greeted(paths);
  expect(await second.request({ op: "connect", servers: [server], roots: [process.cwd()] })).toMatchObject({ ok: { statuses: [{ state: "connected" }] } });
  expect(await second.request({ op: "call", server: "echo", tool: "echo", arguments: { text: "two" }, elicitation: "decline" })).toMatchObject({
    ok: { result: { content: [{ type: "text", text: "two" }] } },
  });
  expect(await findProcesses(tag)).toEqual(pids);
  const status = await second.request({ op: "status" });
  expect(status).toMatchObject({ ok: { connections: [{ name: "echo", state: "connected", calls: 2 }] } });
  second.close();
});

test("connect naming the tool the command calls answers with only that tool; a name the server lacks, with all of them", async () => {
  const { paths } = await keeper();
  const tag = marker();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, tag]);
  const client = await TestKeeperClient.greeted(paths);
  const toolsOf = async (tool?: string) => {
    const answer = await client.request({ op: "connect", servers: [server], roots: [process.cwd()], ...(tool === undefined ? {} : { tool }) });
    if (!("ok" in answer) || !("statuses" in answer.ok)) throw new Error(JSON.stringify(answer));
    const [status] = answer.ok.statuses;
    return status!.state === "connected" ? status!.tools.map((t) => t.name) : [];
  };
  const all = await toolsOf();
  expect(all.length).toBeGreaterThan(2);
  expect(await toolsOf("sleep")).toEqual(["sleep"]);
  expect(await toolsOf("no-such-tool")).toEqual(all);
  client.close();
});

test("a call sent right behind connect, before its answer, waits for it: key=value words typed by the tool's schema; a bad word or a tool the server lacks never reaches it", async () => {
  const { paths } = await keeper();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, marker()]);
  const client = await TestKeeperClient.greeted(paths);
  const connect = { op: "connect" as const, servers: [server], roots: [process.cwd()], callFollows: true, tool: "sleep" };
  const call = (tool: string, pairs: string[]) => client.request({ op: "call", server: "chaos", tool, arguments: {}, pairs, elicitation: "decline" });
  // Both written before either is answered: the call is served once the connect is done.
  const [connected, called] = await Promise.all([client.request(connect), call("sleep", ["ms=1"])]);
  expect(connected).toMatchObject({ ok: { statuses: [{ state: "connected" }] } });
  // `ms=1` as the number the schema asks for (the string "1" would fail the argument check).
  expect(called).toMatchObject({ ok: { result: { isError: false } } });

  const [, badWord] = await Promise.all([client.request(connect), call("sleep", ["ms=soon"])]);
  expect(badWord).toMatchObject({ error: { message: "ms=soon: expected a number", usage: true } });
  const [, missing] = await Promise.all([client.request(connect), call("no-such-tool", [])]);
  expect(missing).toMatchObject({ error: { message: "server 'chaos' has no connected tool 'no-such-tool' on this socket", keeper: true } });
  expect(await client.request({ op: "status" })).toMatchObject({ ok: { connections: [{ name: "chaos", calls: 1 }] } });
  client.close();
});
