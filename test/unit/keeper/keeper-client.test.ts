import { afterEach, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { KeeperClient } from "../../../src/keeper/keeper-client.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { TextLineSplitter } from "../../../src/mcp/transport/text-line-splitter.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A JSON-RPC message the peer read, flat: `op` is its method, the params beside it; `id` absent for a notification. */
type Received = { id?: number; op: string; [param: string]: unknown };

/** A socket peer that hands each message it reads to `answer`, which writes what the test wants back. */
async function peer(answer: (request: Received, socket: Socket) => void): Promise<{ path: string; requests: Received[] }> {
  const path = join(tempDir(), "keeper.sock");
  const requests: Received[] = [];
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    const lines = new TextLineSplitter();
    socket.on("data", (chunk: Buffer) =>
      lines.push(chunk, (line) => {
        const { id, method, params } = JSON.parse(line) as { id?: number; method: string; params?: object };
        const request: Received = { ...(id === undefined ? {} : { id }), op: method, ...params };
        requests.push(request);
        answer(request, socket);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { path, requests };
}

async function open(path: string, maxLineBytes?: number): Promise<KeeperClient> {
  const client = await KeeperClient.open(path, { timeoutMs: 5000, maxLineBytes });
  cleanups.push(() => client.close());
  return client;
}

const send = (socket: Socket, message: object) => socket.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const event = (socket: Socket, params: object) => send(socket, { method: "keeper/event", params });

test("events reach their own request's callback, and each answer settles its own request", async () => {
  const { path } = await peer((request, socket) => {
    if (request.op !== "call") return;
    event(socket, { requestId: request.id, event: "progress", progress: { progress: request.id } });
    event(socket, { requestId: request.id, event: "note", line: `note ${request.tool}` });
    send(socket, { id: request.id, result: { result: { content: [{ type: "text", text: request.tool }] } } });
  });
  const client = await open(path);
  const seen: Record<string, string[]> = { a: [], b: [] };
  const call = (tool: "a" | "b") =>
    client.request(
      { op: "call", server: "s", tool, arguments: {}, elicitation: "decline" },
      { onEvent: (event) => seen[tool]!.push(event.event === "note" ? event.line : event.event) },
    );
  const [a, b] = await Promise.all([call("a"), call("b")]);
  expect([a.result.content, b.result.content]).toEqual([[{ type: "text", text: "a" }], [{ type: "text", text: "b" }]]);
  expect(seen).toEqual({ a: ["progress", "note a"], b: ["progress", "note b"] });
});

test("an error answer rejects with the McpError it carries, its fields checked", async () => {
  const { path } = await peer((request, socket) =>
    send(socket, { id: request.id, error: { code: -32602, message: "nope", data: { code: -32602, kind: "needs-auth", status: 403, extra: "x".repeat(10) } } }),
  );
  const error = await (await open(path)).request({ op: "status" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  expect(error).toMatchObject({ message: "nope", code: -32602, kind: "needs-auth", status: 403 });
});

test("an answer that is not what its request is answered with is a clear error, not a cast", async () => {
  const { path } = await peer((request, socket) => send(socket, { id: request.id, result: { version: "v", pid: -1, startedAt: 0, connections: "none" } }));
  const error = await (await open(path)).request({ op: "status" }).catch((e: unknown) => e);
  expect(error).toMatchObject({ message: expect.stringMatching(/^the connection keeper answered status with something else: pid: /), code: undefined });
});

test("aborting a call rejects it at once and tells the keeper with notifications/cancelled", async () => {
  const { path, requests } = await peer(() => {});
  const client = await open(path);
  const abort = new AbortController();
  const call = client.request({ op: "call", server: "s", tool: "slow", arguments: {}, elicitation: "decline" }, { signal: abort.signal });
  await waitFor(() => requests.length === 1, "the call to arrive");
  const reason = new Error("given up");
  abort.abort(reason);
  await expect(call).rejects.toBe(reason);
  await waitFor(() => requests.length === 2, "the cancellation to arrive");
  expect(requests[1]).toMatchObject({ op: "notifications/cancelled", requestId: requests[0]!.id });
});

test("a keeper that goes away fails every pending request at once, and later ones too", async () => {
  const { path } = await peer((_request, socket) => socket.destroy());
  const client = await open(path);
  const error = await client.request({ op: "status" }).catch((e: unknown) => e);
  expect(error).toMatchObject({ message: "the connection keeper closed the connection", code: undefined });
  await expect(client.request({ op: "status" })).rejects.toThrow("closed the connection");
});

test("a line past the bound ends the connection instead of growing without end", async () => {
  const { path } = await peer((request, socket) => socket.write(`{"jsonrpc":"2.0","id":${request.id},"result":{"pad":"${"x".repeat(64 * 1024)}`));
  const client = await open(path, 1024);
  await expect(client.request({ op: "status" })).rejects.toThrow("longer than 1024 bytes");
  expect(client.closed).toBe(true);
});

test("a line that is not JSON ends the connection", async () => {
  const { path } = await peer((_request, socket) => socket.write("hello there\n"));
  const client = await open(path);
  await expect(client.request({ op: "status" })).rejects.toThrow("not JSON");
});

test("nothing on the socket: opening rejects with ENOENT (the launcher reads that as no keeper)", async () => {
  const error = await KeeperClient.open(join(tempDir(), "none.sock"), { timeoutMs: 1000 }).catch((e: unknown) => e);
  expect((error as NodeJS.ErrnoException).code).toBe("ENOENT");
});
