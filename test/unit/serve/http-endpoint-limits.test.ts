/**
 * What `mcp serve --http` does with a client that floods it, in process on 127.0.0.1: bodies past
 * the limit, more requests at once than it answers, more sessions than it holds, and a session's
 * GET stream that carries what belongs to no request. The upstream is an in-memory server whose
 * calls wait until the test lets them go.
 */
import { afterEach, expect, test } from "bun:test";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { MetaKey, MODERN_PROTOCOL_VERSION } from "../../../src/mcp/stateless-protocol.ts";
import { HttpEndpoint, MAX_HTTP_BODY_BYTES } from "../../../src/serve/http-endpoint.ts";
import { ServeMethods } from "../../../src/serve/serve-methods.ts";
import { initializeHandler, MemoryTransport } from "../../helpers/memory-transport.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const TOKEN = "a".repeat(64);
const entry: ServerEntry = { name: "slow", scope: "user", source: "test", ok: true, config: { type: "stdio", command: "slow", args: [], env: {} } };

let endpoint: HttpEndpoint | undefined;
let pool: ServerPool | undefined;
afterEach(async () => {
  await endpoint?.stop();
  await pool?.closeAll();
  endpoint = pool = undefined;
});

/** An endpoint whose one tool answers once `release` is called; `started` counts the calls that reached it. */
function slowEndpoint(options: { maxInFlight?: number; maxSessions?: number } = {}) {
  const waiting: Array<() => void> = [];
  const upstream: MemoryTransport[] = [];
  pool = new ServerPool([entry], {
    createTransport: () =>
      remember(upstream, new MemoryTransport({
        initialize: initializeHandler(),
        "tools/list": () => ({ tools: [{ name: "wait", inputSchema: { type: "object" } }] }),
        "tools/call": () => new Promise((resolve) => waiting.push(() => resolve({ content: [{ type: "text", text: "done" }] }))),
      })),
  });
  endpoint = new HttpEndpoint(new ServeMethods(pool, pool.connectAll()), { host: "127.0.0.1", port: 0, token: TOKEN, ...options });
  const url = endpoint.url;
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(url, { method: "POST", signal, headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const initialize = () => post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } });
  /** What the upstream server was sent, by method (notifications/cancelled included). */
  const upstreamMethods = () => upstream.flatMap((transport) => transport.sent.map((message) => message.method));
  return { url, post, initialize, waiting, upstream, upstreamMethods, release: () => waiting.splice(0).forEach((go) => go()) };
}

function remember<T>(list: T[], item: T): T {
  list.push(item);
  return item;
}

/** A tools/call of the slow tool that asks for progress, so its answer is an event stream. */
const streamedCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow__wait", arguments: {}, _meta: { progressToken: `p${id}` } } });
const STREAM = { Accept: "application/json, text/event-stream" };

test("a body past the limit is refused with 413, and the endpoint answers the next request", async () => {
  const { post, initialize } = slowEndpoint();
  const huge = await post("x".repeat(MAX_HTTP_BODY_BYTES + 1));
  expect(huge.status).toBe(413);
  expect((await initialize()).status).toBe(200);
});

test("past the requests it answers at once, a client gets 503 with Retry-After until one is done", async () => {
  const { post, initialize, waiting, release } = slowEndpoint({ maxInFlight: 2 });
  const session = (await initialize()).headers.get("mcp-session-id")!;
  const call = (id: number) => post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow__wait", arguments: {} } }, { "Mcp-Session-Id": session });
  const running = [call(2), call(3)];
  await waitFor(() => waiting.length === 2, "both calls to reach the server");
  const refused = await call(4);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  release();
  for (const response of await Promise.all(running)) expect(response.status).toBe(200);
  const again = call(5);
  await waitFor(() => waiting.length === 1, "the call after the release to reach the server");
  release();
  expect((await again).status).toBe(200);
});

test("past the sessions it holds, the least recently used idle one makes room; when all are busy, initialize gets 503", async () => {
  const { url, post, initialize, waiting, release } = slowEndpoint({ maxSessions: 2 });
  const first = (await initialize()).headers.get("mcp-session-id")!;
  const second = (await initialize()).headers.get("mcp-session-id")!;
  const list = (session: string) => post({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }, { "Mcp-Session-Id": session });
  // The first used last: the second is the least recently used, and goes.
  expect((await list(first)).status).toBe(200);
  const third = (await initialize()).headers.get("mcp-session-id")!;
  expect((await list(second)).status).toBe(404);
  // Both left busy (a call running on one, a GET stream open on the other): no room.
  const busy = post({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "slow__wait", arguments: {} } }, { "Mcp-Session-Id": first });
  const stream = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}`, "Mcp-Session-Id": third } });
  await waitFor(() => waiting.length === 1, "the call to reach the server");
  expect((await initialize()).status).toBe(503);
  release();
  expect((await busy).status).toBe(200);
  await stream.body?.cancel();
});

test("a session's GET stream carries its notifications once the handshake is done", async () => {
  const { url, post, initialize } = slowEndpoint();
  const session = (await initialize()).headers.get("mcp-session-id")!;
  const stream = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}`, "Mcp-Session-Id": session, Accept: "text/event-stream" } });
  expect(stream.headers.get("content-type")).toBe("text/event-stream");
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": session });
  endpoint!.broadcast((held) => held.announce("notifications/tools/list_changed", {}));
  const reader = stream.body!.getReader();
  let text = "";
  await waitFor(async () => {
    const { value } = await reader.read();
    text += new TextDecoder().decode(value);
    return text.includes("notifications/tools/list_changed");
  }, () => `the list change on the GET stream; got ${JSON.stringify(text)}`);
  await reader.cancel();
});

test("a streamed call holds its place until its stream closes: past the limit, calls with a progress token get 503 too", async () => {
  const { post, initialize, waiting, release } = slowEndpoint({ maxInFlight: 2 });
  const session = (await initialize()).headers.get("mcp-session-id")!;
  const headers = { ...STREAM, "Mcp-Session-Id": session };
  const streams = [await post(streamedCall(2), headers), await post(streamedCall(3), headers)];
  expect(streams.map((response) => response.headers.get("content-type"))).toEqual(["text/event-stream", "text/event-stream"]);
  await waitFor(() => waiting.length === 2, "both streamed calls to reach the server");
  const refused = await post(streamedCall(4), headers);
  expect(refused.status).toBe(503);
  release();
  for (const stream of streams) expect(await stream.text()).toContain('"text":"done"');
  // Both streams closed: their places are free again.
  const again = post(streamedCall(5), headers);
  await waitFor(() => waiting.length === 1, "the call after the streams closed to reach the server");
  release();
  expect((await again).status).toBe(200);
});

test("a client that goes away mid-call (its stream closed) has the upstream call cancelled, and its place freed", async () => {
  const { post, initialize, waiting, upstreamMethods, release } = slowEndpoint({ maxInFlight: 1 });
  const session = (await initialize()).headers.get("mcp-session-id")!;
  const gone = new AbortController();
  const response = await post(streamedCall(2), { ...STREAM, "Mcp-Session-Id": session }, gone.signal);
  await waitFor(() => waiting.length === 1, "the call to reach the server");
  expect(upstreamMethods()).not.toContain("notifications/cancelled");
  gone.abort();
  await response.body?.cancel().catch(() => {});
  await waitFor(() => upstreamMethods().includes("notifications/cancelled"), () => `notifications/cancelled upstream; it got ${upstreamMethods().join(", ")}`);
  // The one place is free again: the next call is answered, not 503.
  const next = post({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, { "Mcp-Session-Id": session });
  expect((await next).status).toBe(200);
  release();
});

test("a 2026-07-28 client that goes away mid-call has the upstream call cancelled", async () => {
  const { post, waiting, upstreamMethods, release } = slowEndpoint();
  const gone = new AbortController();
  const meta = { [MetaKey.protocolVersion]: MODERN_PROTOCOL_VERSION, [MetaKey.clientCapabilities]: {}, progressToken: "m1" };
  const headers = { ...STREAM, "MCP-Protocol-Version": MODERN_PROTOCOL_VERSION, "Mcp-Method": "tools/call", "Mcp-Name": "slow__wait" };
  const response = await post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow__wait", arguments: {}, _meta: meta } }, headers, gone.signal);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  await waitFor(() => waiting.length === 1, "the call to reach the server");
  gone.abort();
  await response.body?.cancel().catch(() => {});
  await waitFor(() => upstreamMethods().includes("notifications/cancelled"), () => `notifications/cancelled upstream; it got ${upstreamMethods().join(", ")}`);
  release();
});
