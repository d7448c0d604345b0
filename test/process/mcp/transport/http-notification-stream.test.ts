import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport, type HttpTransportOptions } from "../../../../src/mcp/transport/http-transport.ts";
import type { NotificationStreamState } from "../../../../src/mcp/transport/notification-stream.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import {
  ScriptedServer,
  initializeResult,
  sseEvent,
  sseResponse,
  textResult,
  type RecordedRequest,
  type Script,
} from "../../../../fixtures/http/scripted-server.ts";

const REPO = join(import.meta.dir, "..", "..", "..", "..");
const LIST_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A scripted server whose initialize declares `tools.listChanged` (unless `listChanged` is false). */
function serve(script: Script, listChanged = true): ScriptedServer {
  const server = new ScriptedServer(async (request, self) => {
    const answer = await script(request, self);
    if (answer || !listChanged || request.body?.method !== "initialize") return answer;
    const sessions = self.posts("initialize").length;
    return Response.json(initializeResult(request.body.id, { tools: { listChanged: true } }), {
      headers: { "Mcp-Session-Id": `session-${sessions}` },
    });
  });
  opened.push({ close: () => server.stop() });
  return server;
}

async function connect(
  server: ScriptedServer,
  options: { headers?: Record<string, string>; transport?: HttpTransportOptions } = {},
): Promise<{ client: McpClient; transport: HttpTransport; notifications: JsonRpcNotification[] }> {
  const transport = new HttpTransport({ url: server.url, headers: options.headers ?? {} }, { defaultRetryMs: 20, ...options.transport });
  const notifications: JsonRpcNotification[] = [];
  const client = new McpClient(transport, { timeoutMs: 5_000, onNotification: (n) => notifications.push(n) });
  opened.push(client);
  await client.connect();
  return { client, transport, notifications };
}

/**
 * The positive sign that a retry of a stream given up `retryMs` ago would have come by now: a
 * stream of another transport, started later, that fails and retries after the same delay.
 */
async function aRetryWouldHaveCome(retryMs: number): Promise<void> {
  const failing = serve((request) => (request.method === "GET" ? new Response("busy", { status: 503 }) : undefined));
  await connect(failing, { transport: { defaultRetryMs: retryMs } });
  await waitFor(() => gets(failing).length >= 2, `a retry ${retryMs} ms later`);
}

const gets = (server: ScriptedServer): RecordedRequest[] => server.requests.filter((r) => r.method === "GET");

/**
 * An SSE answer that sends `events` and then stays open, quiet, until the client goes away. It
 * starts with a comment: Bun.serve sends the headers only with the first bytes of the body.
 */
function openStream(...events: string[]): Response {
  const encoder = new TextEncoder();
  return sseResponse(
    new ReadableStream({
      start(controller) {
        controller.enqueue(encoder.encode(": open\n\n"));
        for (const event of events) controller.enqueue(encoder.encode(event));
      },
      pull: () => new Promise(() => {}),
    }),
  );
}

async function stateSettles(transport: HttpTransport, state: NotificationStreamState): Promise<void> {
  await waitFor(() => transport.notificationStreamState === state, `the notification stream to be ${state}`);
}

describe("HttpTransport's standalone GET stream", () => {
  test("it is opened for every server, tools.listChanged or not: a request the server sends there is answered", async () => {
    const ask = { jsonrpc: "2.0", id: "srv-ask", method: "elicitation/create", params: { message: "name?", requestedSchema: { type: "object" } } };
    const server = serve((request) => (request.method === "GET" ? openStream(sseEvent({ id: "g-1", data: ask })) : undefined), false);
    const { transport } = await connect(server);
    const reply = await server.waitFor((r) => r.body?.id === "srv-ask" && !r.body.method);
    expect(reply.body.error.code).toBe(-32601);
    expect(reply.headers.get("mcp-session-id")).toBe("session-1");
    expect(transport.notificationStreamState).toBe("open");
  });

  test("it carries Accept, the session, the version and the configured headers; notifications and pings on it are handled, responses ignored", async () => {
    const server = serve((request) => {
      if (request.method !== "GET") return undefined;
      return openStream(
        sseEvent({ id: "g-1", data: LIST_CHANGED }),
        sseEvent({ id: "g-2", data: { jsonrpc: "2.0", id: "srv-ping", method: "ping" } }),
        sseEvent({ id: "g-3", data: { jsonrpc: "2.0", id: 12345, result: {} } }),
        sseEvent({ id: "g-4", data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hello" } } }),
      );
    });
    const { client, transport, notifications } = await connect(server, { headers: { Authorization: "Bearer x", "X-Team": "cats" } });
    await waitFor(() => notifications.length === 2, "both notifications");
    expect(notifications.map((n) => n.method)).toEqual(["notifications/tools/list_changed", "notifications/message"]);
    const pong = await server.waitFor((r) => r.body?.id === "srv-ping" && !r.body.method);
    expect(pong.body).toEqual({ jsonrpc: "2.0", id: "srv-ping", result: {} });
    const [get] = gets(server);
    expect(get!.headers.get("accept")).toBe("text/event-stream");
    expect(get!.headers.get("mcp-session-id")).toBe("session-1");
    expect(get!.headers.get("mcp-protocol-version")).toBe("2025-11-25");
    expect(get!.headers.get("authorization")).toBe("Bearer x");
    expect(get!.headers.get("x-team")).toBe("cats");
    expect(get!.headers.get("last-event-id")).toBeNull();
    // It was opened after the handshake was complete, not during it.
    const order = server.requests.map((r) => r.body?.method ?? r.method);
    expect(order.indexOf("GET")).toBeGreaterThan(order.indexOf("notifications/initialized"));
    expect(transport.notificationStreamState).toBe("open");
    // Requests go on beside it.
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
    expect(gets(server)).toHaveLength(1);
  });

  for (const status of [405, 400]) {
    test(`a ${status} on the GET is no error and is never retried`, async () => {
      const server = serve((request) => (request.method === "GET" ? new Response("no stream here", { status }) : undefined));
      const { client, transport } = await connect(server);
      await stateSettles(transport, "unsupported");
      await aRetryWouldHaveCome(20);
      expect(gets(server)).toHaveLength(1);
      expect(client.state.status).toBe("connected");
      expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
      expect(gets(server)).toHaveLength(1);
    });
  }

  test("a GET stream that drops reconnects after the server's retry with Last-Event-ID", async () => {
    const at: number[] = [];
    const server = serve((request) => {
      if (request.method !== "GET") return undefined;
      at.push(performance.now());
      if (at.length === 1) return sseResponse(sseEvent({ id: "n-1", retry: 100, data: { ...LIST_CHANGED, params: { n: 1 } } }));
      return openStream(sseEvent({ id: "n-2", data: { ...LIST_CHANGED, params: { n: 2 } } }));
    });
    const { transport, notifications } = await connect(server);
    await waitFor(() => notifications.length === 2, "a notification from each connection");
    expect(notifications.map((n) => n.params)).toEqual([{ n: 1 }, { n: 2 }]);
    const [first, second] = gets(server);
    expect(first!.headers.get("last-event-id")).toBeNull();
    expect(second!.headers.get("last-event-id")).toBe("n-1");
    expect(second!.headers.get("mcp-session-id")).toBe("session-1");
    // The server asked for 100 ms (our default here is 20).
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(90);
    await stateSettles(transport, "open");
    expect(gets(server)).toHaveLength(2);
  });

  test("a GET that keeps failing is given up after a few tries, backing off, without touching requests", async () => {
    const at: number[] = [];
    const server = serve((request) => {
      if (request.method !== "GET") return undefined;
      at.push(performance.now());
      return new Response("overloaded", { status: 503 });
    });
    const { client, transport } = await connect(server, { transport: { defaultRetryMs: 20, maxNotificationStreamFailures: 3 } });
    await stateSettles(transport, "given-up");
    // A fourth try would wait 80 ms (20, doubled twice).
    await aRetryWouldHaveCome(80);
    expect(gets(server)).toHaveLength(3);
    // 20 ms, then 40 ms.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(18);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(38);
    expect(client.state.status).toBe("connected");
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
  });

  test("a stream that keeps ending empty counts as failing, while one that brings events does not", async () => {
    const server = serve((request) => (request.method === "GET" ? sseResponse("") : undefined));
    const { transport } = await connect(server, { transport: { defaultRetryMs: 5, maxNotificationStreamFailures: 3 } });
    await stateSettles(transport, "given-up");
    expect(gets(server)).toHaveLength(3);

    let served = 0;
    const moving = serve((request) => {
      if (request.method !== "GET") return undefined;
      served++;
      // Six short connections in a row, each with a new event, then one that stays.
      if (served <= 6) return sseResponse(sseEvent({ id: `m-${served}`, data: "" }));
      return openStream();
    });
    const other = await connect(moving, { transport: { defaultRetryMs: 5, maxNotificationStreamFailures: 3 } });
    await waitFor(() => served === 7, "the seventh connection");
    await stateSettles(other.transport, "open");
    expect(gets(moving).at(-1)!.headers.get("last-event-id")).toBe("m-6");
  });

  test("a 404 on the GET leaves renewal to the next request; the stream then reopens on the new session", async () => {
    const server = serve((request) => {
      const session = request.headers.get("mcp-session-id");
      if (session !== "session-1") return request.method === "GET" ? openStream() : undefined;
      if (request.method === "GET") return new Response("no such session", { status: 404 });
      // The server forgot session-1: any later POST on it is refused too.
      if (server.requests.some((r) => r.method === "GET")) return new Response("no such session", { status: 404 });
      return undefined;
    });
    const { client, transport } = await connect(server);
    await stateSettles(transport, "expired");
    await aRetryWouldHaveCome(20);
    expect(gets(server)).toHaveLength(1);
    expect(server.posts("initialize")).toHaveLength(1);
    // The next request meets the 404, renews the session, and the stream follows it.
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
    expect(transport.sessionId).toBe("session-2");
    await stateSettles(transport, "open");
    const [, second] = gets(server);
    expect(second!.headers.get("mcp-session-id")).toBe("session-2");
    expect(second!.headers.get("last-event-id")).toBeNull();
  });

  test("a GET the server never answers blocks nothing, and close ends it", async () => {
    const server = serve((request) => (request.method === "GET" ? new Promise<Response>(() => {}) : undefined));
    const started = performance.now();
    const { client, transport } = await connect(server);
    const get = await server.waitFor((r) => r.method === "GET");
    expect(transport.notificationStreamState).toBe("connecting");
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
    expect(performance.now() - started).toBeLessThan(2_000);
    await client.close();
    await waitFor(() => get.signal.aborted, "the GET to be given up");
    expect(transport.notificationStreamState).toBe("closed");
  });

  for (const [name, answer] of [
    ["open and quiet", () => openStream()],
    ["waiting to reconnect", () => new Response(null, { status: 503 })],
  ] as const) {
    test(`a process whose GET stream is ${name} exits by itself after close`, async () => {
      const server = serve(async (request, self) => {
        if (request.method === "GET") return answer();
        const { body } = request;
        if (body?.method !== "tools/call") return undefined;
        // The child closes right after this answer: make sure its GET went out first.
        await self.waitFor((r) => r.method === "GET");
        return sseResponse(sseEvent({ data: textResult(body.id, "done") }));
      });
      const child = Bun.spawn([process.execPath, join(REPO, "fixtures", "http", "use-and-close.ts"), server.url], {
        stdout: "pipe",
        stderr: "pipe",
      });
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
      clearTimeout(killer);
      expect(stdout.trim()).toBe("done");
      expect(child.signalCode).toBeNull();
      expect(code).toBe(0);
      if (name === "open and quiet") {
        const get = gets(server)[0]!;
        await waitFor(() => get.signal.aborted, "the server to see the GET end");
      }
    });
  }
});
