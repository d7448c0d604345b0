import { afterEach, beforeAll, afterAll, expect, test } from "bun:test";
import { RELIST_AFTER_IDLE_MS, WarmConnections } from "../../../src/keeper/warm-connections.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import type { ServerRequest } from "../../../src/keeper/keeper-protocol.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { REPO, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { ScriptedServer, sseResponse, type RecordedRequest } from "../../../fixtures/http/scripted-server.ts";

/**
 * The keeper's HTTP connections, in this process against a server on 127.0.0.1: nothing open while
 * no command uses them, and the tools listed again (once for commands that come at once) before
 * the next command, which sees a tool the server added meanwhile.
 */
const savedHome = process.env.CAT_CODE_HOME;
beforeAll(() => {
  // The keeper's credentials store lives in CAT_CODE_HOME: never the user's.
  process.env.CAT_CODE_HOME = tempDir("cat-code-keeper-home-");
});
afterAll(() => {
  if (savedHome === undefined) delete process.env.CAT_CODE_HOME;
  else process.env.CAT_CODE_HOME = savedHome;
});

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A server whose GET stream stays open until the client goes; its tool list is `tools` at the time asked; every call answers "called". */
function serve(tools: string[]): ScriptedServer {
  const encoder = new TextEncoder();
  const server = new ScriptedServer((request) => {
    if (request.method === "GET") return sseResponse(new ReadableStream({ start: (c) => c.enqueue(encoder.encode(": open\n\n")), pull: () => new Promise(() => {}) }));
    if (request.body?.method === "tools/list") {
      return Response.json({ jsonrpc: "2.0", id: request.body.id, result: { tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })) } });
    }
    if (request.body?.method === "tools/call") return Response.json({ jsonrpc: "2.0", id: request.body.id, result: { content: [{ type: "text", text: "called" }] } });
    return undefined;
  });
  opened.push({ close: () => server.stop() });
  return server;
}

function httpServer(url: string): ServerRequest {
  const entry: ServerEntry = { name: "remote", scope: "user", source: "/test/mcp.json", ok: true, config: { type: "http", url, headers: {} } };
  return { entry, launch: { env: {}, cwd: REPO } };
}

const openGets = (server: ScriptedServer): RecordedRequest[] => server.requests.filter((r) => r.method === "GET" && !r.signal.aborted);
const listings = (server: ScriptedServer): number => server.posts("tools/list").length;

test("an idle HTTP connection holds no GET open; after more than a second idle, the next commands (at once) share one listing and see what changed", async () => {
  const tools = ["echo"];
  const server = serve(tools);
  const clock = new FakeClock();
  const warm = new WarmConnections({ version: "test", env: {}, clock });
  opened.push({ close: () => warm.closeAll() });
  const request = httpServer(server.url);
  const listener = () => ({ socket: {}, onLog: () => {} });

  const [first] = await warm.connect([request], [REPO], listener(), false);
  expect(first!.status).toMatchObject({ state: "connected", tools: [{ name: "echo" }] });
  await waitFor(() => server.requests.some((r) => r.method === "GET") && openGets(server).length === 0, "the GET to end once the command is done");
  expect(listings(server)).toBe(1);

  // The server adds a tool while no stream is open: its list_changed could reach no one.
  tools.push("added");
  // Used a moment ago: the server had no time to go away, so the command goes straight on.
  clock.advance(RELIST_AFTER_IDLE_MS);
  await warm.connect([request], [REPO], listener(), false);
  expect(listings(server)).toBe(1);
  clock.advance(RELIST_AFTER_IDLE_MS + 1);
  const [a, b] = await Promise.all([warm.connect([request], [REPO], listener(), false), warm.connect([request], [REPO], listener(), false)]);
  for (const connected of [a, b]) expect(connected![0]!.status.state === "connected" && connected![0]!.status.tools.map((t) => t.name)).toEqual(["echo", "added"]);
  expect(listings(server)).toBe(2);
  expect(server.posts("initialize")).toHaveLength(1);
  expect(warm.size).toBe(1);
  await waitFor(() => openGets(server).length === 0, "no GET left open after the commands");
});

test("mcp call's socket holds the connection from its connect to the end of its call: one GET for both, no listing, however long the gap", async () => {
  const server = serve(["echo"]);
  const clock = new FakeClock();
  const warm = new WarmConnections({ version: "test", env: {}, clock });
  opened.push({ close: () => warm.closeAll() });
  const request = httpServer(server.url);
  const gets = () => server.requests.filter((r) => r.method === "GET").length;
  const command = async (n: number) => {
    const socket = {};
    const [connected] = await warm.connect([request], [REPO], { socket, onLog: () => {} }, true, true);
    // The GET opened for the connect stays open for the call.
    await waitFor(() => gets() === n && openGets(server).length === 1, `command ${n}'s GET to open`);
    clock.advance(5000);
    expect(openGets(server)).toHaveLength(1);
    expect(warm.info()[0]!.idleMs).toBe(0);
    const signal = new AbortController().signal;
    const called = await warm.call(connected!.fingerprint, "echo", {}, { socket, signal, onLog: () => {}, onProgress: () => {}, elicitation: async () => ({ action: "decline" }) });
    expect(called.content).toEqual([{ type: "text", text: "called" }]);
    await waitFor(() => openGets(server).length === 0, `command ${n}'s GET to end with its call`);
    warm.letGo(socket);
  };
  await command(1);
  await command(2);
  expect([gets(), listings(server), server.posts("initialize").length]).toEqual([2, 1, 1]);
});

test("a socket that ends before its call lets the connection go idle: its GET ends and its keep-alive counts", async () => {
  const server = serve(["echo"]);
  const clock = new FakeClock();
  const warm = new WarmConnections({ version: "test", env: {}, clock });
  opened.push({ close: () => warm.closeAll() });
  const socket = {};
  await warm.connect([httpServer(server.url)], [REPO], { socket, onLog: () => {} }, true, true);
  await waitFor(() => openGets(server).length === 1, "the GET to open");
  expect(clock.pending()).toBe(0);
  warm.letGo(socket);
  await waitFor(() => openGets(server).length === 0, "the GET to end with the socket");
  expect(clock.pending()).toBe(1);
});

test("a server gone while idle: after more than a second the next connect finds it (failed, nothing kept); within it, the call that cannot reach it retires the connection", async () => {
  const clock = new FakeClock();
  const warm = new WarmConnections({ version: "test", env: {}, clock });
  opened.push({ close: () => warm.closeAll() });
  const listener = () => ({ socket: {}, onLog: () => {} });
  const caller = () => ({ ...listener(), signal: new AbortController().signal, onProgress: () => {}, elicitation: async () => ({ action: "decline" as const }) });

  // The URL taken while it listens: a stopped server's says port 0.
  const late = httpServer(serve(["echo"]).url);
  await warm.connect([late], [REPO], listener(), false);
  await opened.at(-1)!.close();
  clock.advance(RELIST_AFTER_IDLE_MS + 1);
  const [found] = await warm.connect([late], [REPO], listener(), false);
  expect(found!.status).toMatchObject({ state: "failed", reason: expect.stringContaining("cannot reach") });
  expect(warm.size).toBe(0);

  const soon = httpServer(serve(["echo"]).url);
  const [connected] = await warm.connect([soon], [REPO], listener(), true);
  await opened.at(-1)!.close();
  const [reused] = await warm.connect([soon], [REPO], listener(), true);
  expect(reused!.status.state).toBe("connected");
  await expect(warm.call(connected!.fingerprint, "echo", {}, caller())).rejects.toMatchObject({ kind: "unreachable" });
  expect(warm.size).toBe(0);
});

test("a socket that ends while its connect lists the tools again holds nothing: the connection goes idle", async () => {
  const encoder = new TextEncoder();
  let listed = 0;
  let answerListing = () => {};
  const server = new ScriptedServer(async (request) => {
    if (request.method === "GET") return sseResponse(new ReadableStream({ start: (c) => c.enqueue(encoder.encode(": open\n\n")), pull: () => new Promise(() => {}) }));
    if (request.body?.method === "tools/list") {
      // The second listing (after idling) waits until the test lets it answer.
      if (++listed === 2) await new Promise<void>((resolve) => (answerListing = resolve));
      return Response.json({ jsonrpc: "2.0", id: request.body.id, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } });
    }
    return undefined;
  });
  opened.push({ close: () => server.stop() });
  const clock = new FakeClock();
  const warm = new WarmConnections({ version: "test", env: {}, clock });
  opened.push({ close: () => warm.closeAll() });
  const request = httpServer(server.url);
  await warm.connect([request], [REPO], { socket: {}, onLog: () => {} }, true, false);
  clock.advance(RELIST_AFTER_IDLE_MS + 1);

  const socket = {};
  const connecting = warm.connect([request], [REPO], { socket, onLog: () => {} }, true, true);
  await waitFor(() => listed === 2, "the listing after idling to reach the server");
  // Ctrl-C on `mcp call`: the socket ends before its connect is answered.
  warm.letGo(socket);
  answerListing();
  await connecting;
  expect(warm.info()[0]!.idleMs).toBe(0);
  clock.advance(1);
  expect(warm.info()[0]!.idleMs).toBe(1);
  expect(clock.pending()).toBe(1);
});
