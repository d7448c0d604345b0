import { afterEach, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { ScriptedServer, sseResponse, type RecordedRequest } from "../../../../fixtures/http/scripted-server.ts";

/**
 * An idle HTTP transport (the keeper's connection between two commands) holds no stream open, so
 * the server can close gracefully; in use again, it listens again, on the session it has then.
 */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A GET answered with an SSE stream that stays open, quiet, until the client goes away. */
function serveStreams(expireSessionOnce = false): ScriptedServer {
  let expired = false;
  const server = new ScriptedServer((request) => {
    if (request.method === "GET") {
      const encoder = new TextEncoder();
      return sseResponse(new ReadableStream({ start: (c) => c.enqueue(encoder.encode(": open\n\n")), pull: () => new Promise(() => {}) }));
    }
    if (expireSessionOnce && !expired && request.body?.method === "tools/list" && request.headers.get("mcp-session-id") === "session-1") {
      expired = true;
      return new Response("no such session", { status: 404 });
    }
    return undefined;
  });
  opened.push({ close: () => server.stop() });
  return server;
}

async function connected(server: ScriptedServer): Promise<{ client: McpClient; transport: HttpTransport }> {
  const transport = new HttpTransport({ url: server.url, headers: {} }, { defaultRetryMs: 20 });
  const client = new McpClient(transport, { timeoutMs: 5_000 });
  opened.push(client);
  await client.connect();
  await waitFor(() => transport.notificationStreamState === "open", "the GET stream to open");
  return { client, transport };
}

const gets = (server: ScriptedServer): RecordedRequest[] => server.requests.filter((r) => r.method === "GET");

test("idle: the open GET stream ends (the server sees it go) and none is opened; in use again: one GET, from the start", async () => {
  const server = serveStreams();
  const { client, transport } = await connected(server);
  const first = gets(server)[0]!;

  transport.setIdle(true);
  await waitFor(() => first.signal.aborted, "the server to see the GET end");
  expect(transport.notificationStreamState).toBe("paused");
  // A request while idle (none comes from the keeper, but one may) opens no stream either.
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
  expect(gets(server)).toHaveLength(1);

  transport.setIdle(false);
  await waitFor(() => transport.notificationStreamState === "open" && gets(server).length === 2, "the GET stream to open again");
  expect(gets(server)[1]!.headers.get("last-event-id")).toBeNull();
  expect(gets(server)[1]!.headers.get("mcp-session-id")).toBe("session-1");
});

test("a session renewed while in use again: the stream follows it to the new session", async () => {
  const server = serveStreams(true);
  const { client, transport } = await connected(server);
  transport.setIdle(true);
  await waitFor(() => gets(server)[0]!.signal.aborted, "the first GET to end");

  transport.setIdle(false);
  client.forgetTools();
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
  expect(server.posts("initialize")).toHaveLength(2);
  await waitFor(() => gets(server).some((get) => get.headers.get("mcp-session-id") === "session-2" && !get.signal.aborted), "a GET on the new session");
  expect(transport.notificationStreamState).toBe("open");
});

test("a server that offers no stream is not asked again after idling; a closed transport ignores setIdle", async () => {
  const server = new ScriptedServer(() => undefined);
  opened.push({ close: () => server.stop() });
  const transport = new HttpTransport({ url: server.url, headers: {} }, { defaultRetryMs: 20 });
  const client = new McpClient(transport, { timeoutMs: 5_000 });
  await client.connect();
  await waitFor(() => transport.notificationStreamState === "unsupported", "the 405 to be taken as no stream");
  transport.setIdle(true);
  transport.setIdle(false);
  expect(transport.notificationStreamState).toBe("unsupported");
  expect(gets(server)).toHaveLength(1);
  await client.close();
  transport.setIdle(false);
  expect(transport.notificationStreamState).toBe("closed");
});
