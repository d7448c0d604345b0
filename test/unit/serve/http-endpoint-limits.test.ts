/**
 * What `mcp serve --http` does with a client that floods it, in process on 127.0.0.1: bodies past
 * the limit, more requests at once than it answers, more sessions than it holds, and a session's
 * GET stream that carries what belongs to no request. The upstream is an in-memory server whose
 * calls wait until the test lets them go.
 */
import { afterEach, expect, test } from "bun:test";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
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
  pool = new ServerPool([entry], {
    createTransport: () =>
      new MemoryTransport({
        initialize: initializeHandler(),
        "tools/list": () => ({ tools: [{ name: "wait", inputSchema: { type: "object" } }] }),
        "tools/call": () => new Promise((resolve) => waiting.push(() => resolve({ content: [{ type: "text", text: "done" }] }))),
      }),
  });
  endpoint = new HttpEndpoint(new ServeMethods(pool, pool.connectAll()), { host: "127.0.0.1", port: 0, token: TOKEN, ...options });
  const url = endpoint.url;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const initialize = () => post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } });
  return { url, post, initialize, waiting, release: () => waiting.splice(0).forEach((go) => go()) };
}

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
