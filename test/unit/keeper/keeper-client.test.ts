import { afterEach, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { KeeperClient, KeeperRequestError } from "../../../src/keeper/keeper-client.ts";
import type { KeeperRequest } from "../../../src/keeper/keeper-protocol.ts";
import { TextLineSplitter } from "../../../src/mcp/transport/text-line-splitter.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A socket peer that hands each request it reads to `answer`, which writes what the test wants back. */
async function peer(answer: (request: KeeperRequest, socket: Socket) => void): Promise<{ path: string; requests: KeeperRequest[] }> {
  const path = join(tempDir(), "keeper.sock");
  const requests: KeeperRequest[] = [];
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    const lines = new TextLineSplitter();
    socket.on("data", (chunk: Buffer) =>
      lines.push(chunk, (line) => {
        const request = JSON.parse(line) as KeeperRequest;
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

const send = (socket: Socket, message: unknown) => socket.write(`${JSON.stringify(message)}\n`);

test("events reach their own request's callback, and each answer settles its own request", async () => {
  const { path } = await peer((request, socket) => {
    if (request.op !== "call") return;
    send(socket, { id: request.id, event: "progress", progress: { progress: request.id } });
    send(socket, { id: request.id, event: "note", line: `note ${request.tool}` });
    send(socket, { id: request.id, ok: { result: { content: [{ type: "text", text: request.tool }] } } });
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

test("an error answer rejects with the wire error's fields only", async () => {
  const { path } = await peer((request, socket) => send(socket, { id: request.id, error: { message: "nope", code: -32602, needsAuth: true, extra: "x".repeat(10) } }));
  const error = await (await open(path)).request({ op: "status" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(KeeperRequestError);
  expect((error as KeeperRequestError).wire).toEqual({ message: "nope", code: -32602, needsAuth: true });
});

test("aborting a call sends cancel for it; its answer still settles it", async () => {
  const { path, requests } = await peer((request, socket) => {
    if (request.op === "cancel") send(socket, { id: request.target, error: { message: "cancelled", code: -32800 } });
  });
  const client = await open(path);
  const abort = new AbortController();
  const call = client.request({ op: "call", server: "s", tool: "slow", arguments: {}, elicitation: "decline" }, { signal: abort.signal });
  await waitFor(() => requests.length === 1, "the call to arrive");
  abort.abort();
  await expect(call).rejects.toThrow("cancelled");
  expect(requests.map((r) => r.op)).toEqual(["call", "cancel"]);
  expect(requests[1]).toMatchObject({ op: "cancel", target: requests[0]!.id });
});

test("a keeper that goes away fails every pending request at once, and later ones too", async () => {
  const { path } = await peer((_request, socket) => socket.destroy());
  const client = await open(path);
  const error = await client.request({ op: "status" }).catch((e: unknown) => e);
  expect((error as KeeperRequestError).wire).toEqual({ message: "the connection keeper closed the connection", keeper: true });
  await expect(client.request({ op: "status" })).rejects.toThrow("closed the connection");
});

test("a line past the bound ends the connection instead of growing without end", async () => {
  const { path } = await peer((request, socket) => socket.write(`{"id":${request.id},"ok":{"pad":"${"x".repeat(64 * 1024)}`));
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
