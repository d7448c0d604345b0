/**
 * The HTTP transport in 2026-07-28 mode, against a scripted server on 127.0.0.1: the headers of
 * every POST, no session, no GET stream, no DELETE, and a broken response stream that is sent
 * again with a new id instead of resumed.
 */
import { afterEach, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { result, ScriptedServer, silence, sseEvent, sseResponse, textResult, type RecordedRequest, type Script } from "../../../../fixtures/http/scripted-server.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const MODERN = "2026-07-28";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A modern server (its discover lists 2026-07-28) that hands out a session id it must not get back. */
function serveModern(script: Script = () => undefined): ScriptedServer {
  const server = new ScriptedServer(async (request, self) => {
    const own = await script(request, self);
    if (own) return own;
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const { id, method } = request.body;
    if (method === "server/discover") {
      return Response.json(result(id, { supportedVersions: [MODERN], capabilities: { tools: {} } }), { headers: { "Mcp-Session-Id": "not-for-modern" } });
    }
    if (method === "tools/call") return Response.json(textResult(id, `called ${request.body.params.name}`), { headers: { "Mcp-Session-Id": "not-for-modern" } });
    return undefined;
  });
  opened.push({ close: () => server.stop() });
  return server;
}

async function connect(server: ScriptedServer, clock?: FakeClock): Promise<McpClient> {
  const client = new McpClient(new HttpTransport({ url: server.url, headers: { "X-Team": "cats" } }), { timeoutMs: 5_000, clock });
  opened.push(client);
  await client.connect();
  expect(client.era).toBe("modern");
  return client;
}

test("every POST carries MCP-Protocol-Version, Mcp-Method and, on tools/call, Mcp-Name; never a session id", async () => {
  const server = serveModern();
  const client = await connect(server);
  await client.callTool("weather", { city: "Paris" });
  await client.callTool("héllo wörld", {});
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts.map((r) => r.body.method)).toEqual(["server/discover", "tools/call", "tools/call"]);
  for (const post of posts) {
    expect(post.headers.get("mcp-protocol-version")).toBe(MODERN);
    expect(post.headers.get("mcp-method")).toBe(post.body.method);
    expect(post.headers.get("mcp-session-id")).toBeNull();
    expect(post.headers.get("x-team")).toBe("cats");
    expect(post.body.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe(MODERN);
  }
  expect(posts[0]!.headers.get("mcp-name")).toBeNull();
  expect(posts[1]!.headers.get("mcp-name")).toBe("weather");
  // Not plain header text: the revision's base64 form of its UTF-8.
  expect(posts[2]!.headers.get("mcp-name")).toBe(`=?base64?${Buffer.from("héllo wörld").toString("base64")}?=`);
});

test("no standalone GET stream is opened and close sends no DELETE", async () => {
  const server = serveModern();
  const client = await connect(server);
  await client.callTool("weather", {});
  await client.close();
  // A positive sign that the connection's work is over: the close happened after the last POST.
  expect(client.state.status).toBe("closed");
  expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
});

test("a response stream that ends without the answer is sent again with a new id", async () => {
  let broken = 0;
  const server = serveModern((request) => {
    if (request.body?.method !== "tools/call") return undefined;
    if (broken < 2) {
      broken++;
      // An id to resume from is offered, but the revision has no resumption: no GET may follow.
      return sseResponse(sseEvent({ id: "event-1", data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } } }));
    }
    return Response.json(textResult(request.body.id, "third time lucky"));
  });
  const client = await connect(server);
  const answer = await client.callTool("flaky", {});
  expect(answer.content[0]?.text).toBe("third time lucky");
  const calls = server.posts("tools/call");
  expect(calls).toHaveLength(3);
  expect(new Set(calls.map((r: RecordedRequest) => r.body.id)).size).toBe(3);
  expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(0);
});

test("a stream that breaks three times fails the call, saying the stream ended", async () => {
  const server = serveModern((request) => (request.body?.method === "tools/call" ? sseResponse(": nothing\n\n") : undefined));
  const client = await connect(server);
  const error = await client.callTool("flaky", {}).catch((e) => e);
  expect(error.message).toContain("ended the stream before answering tools/call");
  expect(error.kind).toBe("stream-lost");
  expect(server.posts("tools/call")).toHaveLength(3);
});

test("per-call headers (Mcp-Param-*) go with the request, beside the protocol's", async () => {
  const server = serveModern();
  const client = await connect(server);
  // `request` is private: reached here as the calls layer will (callTool passes them through it).
  await (client as any).request("tools/call", { name: "region_query", arguments: { region: "eu" } }, { headers: { "Mcp-Param-Region": "eu" } });
  const call = server.posts("tools/call")[0]!;
  expect(call.headers.get("mcp-param-region")).toBe("eu");
  expect(call.headers.get("mcp-method")).toBe("tools/call");
  expect(call.headers.get("mcp-name")).toBe("region_query");
});

test("a call given up closes its stream, which is the cancellation: no notifications/cancelled is posted", async () => {
  const server = serveModern((request) => (request.body?.params?.name === "hang" ? sseResponse(silence()) : undefined));
  const clock = new FakeClock();
  const client = await connect(server, clock);
  const hanging = client.callTool("hang", {}).catch((e) => e);
  const call = await server.waitFor((r) => r.body?.params?.name === "hang");
  clock.advance(5_010);
  expect((await hanging).message).toBe("tools/call timed out after 5000 ms");
  await waitFor(() => call.signal.aborted, "the server to see the stream closed");
  // A later call is the sign that anything sent on the timeout would have arrived before it.
  await client.callTool("after", {});
  expect(server.requests.filter((r) => r.method === "POST").map((r) => r.body.method)).toEqual(["server/discover", "tools/call", "tools/call"]);
});

test("a tool name with CR/LF cannot add a header: Mcp-Name goes base64", async () => {
  const server = serveModern();
  const client = await connect(server);
  const name = "evil\r\nX-Injected: 1";
  await client.callTool(name, {});
  const call = server.posts("tools/call")[0]!;
  expect(call.headers.get("x-injected")).toBeNull();
  expect(call.headers.get("mcp-name")).toBe(`=?base64?${Buffer.from(name).toString("base64")}?=`);
});
