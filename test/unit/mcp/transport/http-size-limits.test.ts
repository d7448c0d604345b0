import { afterEach, describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport, type HttpTransportOptions } from "../../../../src/mcp/transport/http-transport.ts";
import { initializeResult, ScriptedServer, sseEvent, sseResponse, type RecordedRequest, type Script } from "../../../../fixtures/http/scripted-server.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

/** A small limit, so the tests need not send 256 MB; the code path is the default one's. */
const LIMIT = 2 ** 20;
const LIST_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
const encoder = new TextEncoder();

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A scripted server whose initialize declares `tools.listChanged`, so the client opens the GET stream. */
function serve(script: Script): ScriptedServer {
  const server = new ScriptedServer(async (request, self) => {
    const answer = await script(request, self);
    if (answer || request.body?.method !== "initialize") return answer;
    return Response.json(initializeResult(request.body.id, { tools: { listChanged: true } }), { headers: { "Mcp-Session-Id": "session-1" } });
  });
  opened.push({ close: () => server.stop() });
  return server;
}

async function connect(server: ScriptedServer, options: HttpTransportOptions = {}) {
  const transport = new HttpTransport({ url: server.url, headers: {} }, { maxMessageChars: LIMIT, defaultRetryMs: 5, ...options });
  const notifications: JsonRpcNotification[] = [];
  const client = new McpClient(transport, { timeoutMs: 20_000, onNotification: (n) => notifications.push(n) });
  opened.push(client);
  await client.connect();
  return { client, transport, notifications };
}

/** A body that sends `start`, then `piece` for as long as the client reads, counting the bytes. */
function endless(start: string, piece = "x".repeat(16 * 1024)): { stream: ReadableStream<Uint8Array>; sent: () => number } {
  let sent = 0;
  const bytes = encoder.encode(piece);
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(encoder.encode(start)),
    pull: (controller) => {
      sent += bytes.length;
      controller.enqueue(bytes);
    },
  });
  return { stream, sent: () => sent };
}

/** An SSE answer that sends `text` and then stays open, quiet, until the client goes away. */
function openStream(text: string): Response {
  return sseResponse(
    new ReadableStream({
      start: (controller) => controller.enqueue(encoder.encode(`: open\n\n${text}`)),
      pull: () => new Promise(() => {}),
    }),
  );
}

describe("HTTP message size limit", () => {
  test("an endless data line in an SSE answer fails the call at the limit, and the connection is let go", async () => {
    let body: ReturnType<typeof endless> | undefined;
    const server = serve(({ body: message }) => {
      if (message?.method !== "tools/call") return undefined;
      body = endless(`id: e1\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
      return sseResponse(body.stream);
    });
    const { client } = await connect(server);
    const error = await failure(client.callTool("flood", {}));
    expect(error.message).toBe(`the server at ${server.url} sent an event larger than 1 MB on the stream for tools/call; it was refused`);
    const call = server.posts("tools/call")[0]!;
    await waitFor(() => call.signal.aborted, "the server to see the answer's connection end");
    // What was sent is the limit plus what the sockets buffer, not gigabytes.
    expect(body!.sent()).toBeLessThan(64 * LIMIT);
    // The stream was not resumed (it would only bring the same event), and the server is still usable.
    expect(server.requests.filter((r) => r.headers.has("last-event-id"))).toHaveLength(0);
    expect(client.state.status).toBe("connected");
  });

  test("a JSON answer past the limit is refused before it is whole", async () => {
    let body: ReturnType<typeof endless> | undefined;
    const server = serve(({ body: message }) => {
      if (message?.method !== "tools/call") return undefined;
      body = endless(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
      return new Response(body.stream, { headers: { "Content-Type": "application/json" } });
    });
    const { client } = await connect(server);
    const error = await failure(client.callTool("flood", {}));
    expect(error.message).toBe(`the server at ${server.url} answered tools/call with more than 1 MB of JSON; it was refused`);
    expect(error.status).toBe(200);
    const call = server.posts("tools/call")[0]!;
    await waitFor(() => call.signal.aborted, "the server to see the answer's connection end");
    expect(body!.sent()).toBeLessThan(64 * LIMIT);
  });

  test("a JSON answer whose declared length or compressed size hides a body over the limit is refused", async () => {
    const json = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "x".repeat(8 * LIMIT) }] } });
    const server = serve(({ body: message }) => {
      if (message?.method !== "tools/call") return undefined;
      const headers = { "Content-Type": "application/json" };
      // A few kilobytes on the wire that unpack to 8 MB.
      if (message.params.name === "gzip") return new Response(Bun.gzipSync(json(message.id)), { headers: { ...headers, "Content-Encoding": "gzip" } });
      return new Response(json(message.id), { headers });
    });
    const { client } = await connect(server);
    for (const name of ["declared", "gzip"]) {
      const error = await failure(client.callTool(name, {}));
      expect(error.message).toBe(`the server at ${server.url} answered tools/call with more than 1 MB of JSON; it was refused`);
    }
  });

  test("an answer just under the limit arrives whole", async () => {
    const text = "y".repeat(LIMIT - 200);
    const server = serve(({ body: message }) =>
      message?.method === "tools/call" ? sseResponse(sseEvent({ data: { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } } })) : undefined,
    );
    const { client } = await connect(server);
    expect((await client.callTool("big", {})).content[0]?.text).toBe(text);
  });

  test("an endless event on the standalone GET stream gives the stream up; requests go on", async () => {
    let body: ReturnType<typeof endless> | undefined;
    let get: RecordedRequest | undefined;
    const server = serve((request) => {
      if (request.method !== "GET") return undefined;
      get = request;
      body = endless("data: ");
      return sseResponse(body.stream);
    });
    const { client, transport } = await connect(server);
    await waitFor(() => transport.notificationStreamState === "given-up", "the GET stream to be given up");
    await waitFor(() => get?.signal.aborted, "the server to see the GET end");
    expect(body!.sent()).toBeLessThan(64 * LIMIT);
    expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo"]);
  });
});

describe("the GET stream's event idle limit", () => {
  test("an event left unfinished is dropped after the idle limit and the stream resumes after the last whole event", async () => {
    // Connected first: had its quiet stream an idle timer, it would fire before the stalled one's.
    const quietServer = serve((request) => (request.method === "GET" ? openStream(sseEvent({ id: "q-1", data: LIST_CHANGED })) : undefined));
    const quiet = await connect(quietServer, { eventIdleTimeoutMs: 150 });
    await waitFor(() => quiet.notifications.length === 1, "the quiet stream's notification");

    const server = serve((request) => {
      if (request.method !== "GET") return undefined;
      const first = server.requests.filter((r) => r.method === "GET").length === 1;
      return openStream(first ? `${sseEvent({ id: "g-1", data: LIST_CHANGED })}id: g-2\ndata: {"jsonrpc":` : sseEvent({ id: "g-3", data: LIST_CHANGED }));
    });
    const { transport, notifications } = await connect(server, { eventIdleTimeoutMs: 150 });
    await waitFor(() => notifications.length === 2, "a notification from the second connection");
    const [first, second] = server.requests.filter((r) => r.method === "GET");
    expect(first!.signal.aborted).toBe(true);
    expect(second!.headers.get("last-event-id")).toBe("g-1");
    expect(transport.notificationStreamState).toBe("open");

    expect(quietServer.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    expect(quiet.transport.notificationStreamState).toBe("open");
  });
});
