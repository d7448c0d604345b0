/**
 * The pool's one way to tell its front ends what happens: typed events with any number of
 * listeners, and the servers' questions, which have one answerer at a time. In memory: the pool only
 * needs the transport contract here (real servers drive the same events in servers-that-come-and-go).
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { ElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";
import type { ServerLogEntry } from "../../../../src/mcp/client/server-log.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool, type ServerPoolOptions } from "../../../../src/mcp/pool/server-pool.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });

let pool: ServerPool | undefined;
let transports: MemoryTransport[] = [];
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
  transports = [];
});

async function connectedPool(options: ServerPoolOptions = {}): Promise<ServerPool> {
  pool = new ServerPool([entry("files")], {
    ...options,
    createTransport: () => {
      const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) });
      transports.push(transport);
      return transport;
    },
  });
  await pool.connectAll();
  return pool;
}

const logLine = (data: string) => transports[0]!.serverNotification("notifications/message", { level: "warning", data });
const question: ElicitationRequest = { server: "files", mode: "form", message: "Which folder?", requestedSchema: { type: "object", properties: {} }, form: { fields: [] } };
/** What the client asks when the server asks: the pool's answerer, as the client got it. */
const ask = () => (pool!.client("files") as unknown as { options: { elicitation: (request: ElicitationRequest) => Promise<unknown> } }).options.elicitation(question);

describe("pool events", () => {
  test("two listeners of one event both hear it; one that unsubscribed does not", async () => {
    const pool = await connectedPool();
    const first: string[] = [];
    const second: string[] = [];
    pool.on("log", (logged: ServerLogEntry) => first.push(`${logged.server}: ${logged.data}`));
    const stop = pool.on("log", (logged) => second.push(`${logged.server}: ${logged.data}`));
    logLine("one");
    stop();
    logLine("two");
    expect(first).toEqual(["files: one", "files: two"]);
    expect(second).toEqual(["files: one"]);
  });

  test("a listener that throws breaks neither the pool nor the listeners after it", async () => {
    const pool = await connectedPool();
    const heard: string[] = [];
    pool.on("resource-updated", () => {
      throw new Error("a front end's bug");
    });
    pool.on("resource-updated", ({ server, uri }) => heard.push(`${server} ${uri}`));
    transports[0]!.serverNotification("notifications/resources/updated", { uri: "file:///a" });
    transports[0]!.serverNotification("notifications/resources/updated", { uri: "file:///b" });
    expect(heard).toEqual(["files file:///a", "files file:///b"]);
    expect(pool.status()[0]?.state).toBe("connected");
  });

  test("the same function added twice is two listeners, and each unsubscribe takes out its own", async () => {
    const pool = await connectedPool();
    const heard: string[] = [];
    const listener = (logged: ServerLogEntry) => void heard.push(String(logged.data));
    const stopFirst = pool.on("log", listener);
    pool.on("log", listener);
    logLine("twice");
    stopFirst();
    stopFirst();
    logLine("once");
    expect(heard).toEqual(["twice", "twice", "once"]);
  });

  test("each event goes to its own listeners only", async () => {
    const pool = await connectedPool();
    const servers: string[] = [];
    pool.on("server", (event) => servers.push(event.kind));
    pool.on("tools-changed", () => servers.push("tools-changed"));
    logLine("not a server event");
    expect(servers).toEqual([]);
    await pool.reconnect("files");
    expect(servers).toEqual(["connected", "tools-changed"]);
  });
});

describe("the servers' questions", () => {
  test("go to the pool's own answerer until a front end takes them over, and back to it once released", async () => {
    await connectedPool({ elicitation: async () => ({ action: "decline" }) });
    expect(await ask()).toEqual({ action: "decline" });
    const release = pool!.answerQuestionsWith(async () => ({ action: "accept", content: { folder: "src" } }));
    expect(await ask()).toEqual({ action: "accept", content: { folder: "src" } });
    release();
    expect(await ask()).toEqual({ action: "decline" });
  });

  test("a second front end is refused while one answers, and the first keeps answering", async () => {
    await connectedPool({ elicitation: async () => ({ action: "decline" }) });
    const release = pool!.answerQuestionsWith(async () => ({ action: "accept", content: { by: "first" } }));
    expect(() => pool!.answerQuestionsWith(async () => ({ action: "accept", content: { by: "second" } }))).toThrow("already have an answerer");
    expect(await ask()).toEqual({ action: "accept", content: { by: "first" } });
    release();
    const releaseSecond = pool!.answerQuestionsWith(async () => ({ action: "accept", content: { by: "second" } }));
    // The first one's release, called again, does not give back the second one's turn.
    release();
    expect(await ask()).toEqual({ action: "accept", content: { by: "second" } });
    releaseSecond();
  });
});
