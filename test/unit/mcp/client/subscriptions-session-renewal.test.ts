/**
 * A legacy HTTP server that expires the session forgets its subscriptions with it: after the
 * renewal, the client asks for each of its subscriptions again, in the new session. Against a real
 * server on 127.0.0.1 that scripts the expiry.
 */
import { expect, test } from "bun:test";
import { initializeResult, result, textResult } from "../../../../fixtures/http/scripted-server.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const { serve, keep } = scriptedServers();

test("after a session renewal, every subscribed URI is subscribed again in the new session; an unsubscribed one is not", async () => {
  const server = serve((request, self) => {
    const { body, headers } = request;
    if (body?.method === "initialize") {
      const n = self.posts("initialize").length;
      return Response.json(initializeResult(body.id, { resources: { subscribe: true } }), { headers: { "Mcp-Session-Id": `session-${n}` } });
    }
    if (body?.method === "resources/subscribe" || body?.method === "resources/unsubscribe") return Response.json(result(body.id, {}));
    if (body?.method === "tools/call" && headers.get("mcp-session-id") === "session-1") return new Response(null, { status: 404 });
    if (body?.method === "tools/call") return Response.json(textResult(body.id, "ok"));
  });
  const client = keep(new McpClient(new HttpTransport({ url: server.url, headers: {} }), { timeoutMs: 10_000 }));
  await client.connect();
  await client.subscribeResource("test://a");
  await client.subscribeResource("test://b");
  await client.unsubscribeResource("test://a");
  await client.callTool("echo", {});
  await server.waitFor((r) => r.body?.method === "resources/subscribe" && r.headers.get("mcp-session-id") === "session-2");
  const subscribes = server.posts("resources/subscribe").map((r) => `${r.headers.get("mcp-session-id")} ${r.body.params.uri}`);
  expect(subscribes).toEqual(["session-1 test://a", "session-1 test://b", "session-2 test://b"]);
});
