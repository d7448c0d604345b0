/**
 * McpClient renews an HTTP session the server expired (404 on a request that carried it): the same
 * handshake as connect(), version check included, once for every request that met the expiry.
 * Against a real server on 127.0.0.1 that scripts the expiry.
 */
import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { ScriptedServer, initializeResult, textResult } from "../../../../fixtures/http/scripted-server.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const { serve, keep } = scriptedServers();

async function connect(server: ScriptedServer): Promise<McpClient> {
  const client = new McpClient(new HttpTransport({ url: server.url, headers: {} }), { timeoutMs: 10_000 });
  keep(client);
  await client.connect();
  return client;
}

/** The answer to initialize number `n` (1, 2, …), in session `session-n`, speaking `version`. */
function initializeAs(body: { id: unknown }, n: number, version: string): Response {
  const result = initializeResult(body.id) as { result: Record<string, unknown> };
  result.result.protocolVersion = version;
  return Response.json(result, { headers: { "Mcp-Session-Id": `session-${n}` } });
}

describe("McpClient renews an expired HTTP session", () => {
  test("a new session answering a version cat-code does not speak fails the request clearly, and is not used", async () => {
    const server = serve((request, self) => {
      const { body, headers } = request;
      if (body?.method === "initialize") {
        const n = self.posts("initialize").length;
        return initializeAs(body, n, n === 1 ? "2025-11-25" : "1999-01-01");
      }
      if (body?.method === "tools/call" && headers.get("mcp-session-id") === "session-1") return new Response(null, { status: 404 });
      if (body?.method === "tools/call") return Response.json(textResult(body.id, "must not be reached"));
    });
    const client = await connect(server);
    const error = await failure(client.callTool("echo", {}));
    expect(error.message).toBe("unsupported protocol version 1999-01-01 (cat-code speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)");
    // Neither the handshake was completed nor the call sent again in that session.
    expect(server.posts("notifications/initialized")).toHaveLength(1);
    expect(server.posts("tools/call")).toHaveLength(1);
  });

  test("the version of the new session is checked and sent from then on", async () => {
    const server = serve((request, self) => {
      const { body, headers } = request;
      if (body?.method === "initialize") {
        const n = self.posts("initialize").length;
        return initializeAs(body, n, n === 1 ? "2025-11-25" : "2025-06-18");
      }
      if (body?.method === "tools/call" && headers.get("mcp-session-id") === "session-1") return new Response(null, { status: 404 });
      if (body?.method === "tools/call") return Response.json(textResult(body.id, `in ${headers.get("mcp-session-id")}`));
    });
    const client = await connect(server);
    expect((await client.callTool("echo", {})).content[0]?.text).toBe("in session-2");
    expect(client.protocolVersion).toBe("2025-06-18");
    const retried = server.posts("tools/call")[1]!;
    expect(retried.headers.get("mcp-protocol-version")).toBe("2025-06-18");
    expect(server.posts("notifications/initialized").at(-1)!.headers.get("mcp-protocol-version")).toBe("2025-06-18");
  });

  test("concurrent requests that meet the same expiry renew once, even one whose 404 comes after the renewal", async () => {
    const server = serve(async (request, self) => {
      const { body, headers } = request;
      if (body?.method !== "tools/call") return undefined;
      if (headers.get("mcp-session-id") === "session-2") return Response.json(textResult(body.id, "ok"));
      // Every call was sent in session-1; "late" hears of its expiry only once the new session is up.
      if (body.params.name === "late") await self.waitFor((r) => r.body?.method === "notifications/initialized" && r.headers.get("mcp-session-id") === "session-2");
      else await self.waitFor(() => self.posts("tools/call").length >= 5);
      return new Response(null, { status: 404 });
    });
    const client = await connect(server);
    const names = ["a", "b", "c", "d", "late"];
    const results = await Promise.all(names.map((name) => client.callTool(name, {})));
    expect(results.map((r) => r.content[0]?.text)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(server.posts("initialize")).toHaveLength(2);
    expect(server.posts("tools/call")).toHaveLength(10);
    expect(client.state.status).toBe("connected");
  });

  test("a request sent after a failed renewal renews first, rather than go out without a session", async () => {
    let refuseRenewal = true;
    const server = serve((request, self) => {
      const { body, headers } = request;
      if (body?.method === "initialize" && self.posts("initialize").length > 1 && refuseRenewal) {
        refuseRenewal = false;
        return new Response("try later", { status: 503 });
      }
      if (body?.method === "tools/call" && headers.get("mcp-session-id") === "session-1") return new Response(null, { status: 404 });
      if (body?.method === "tools/call") return Response.json(textResult(body.id, `in ${headers.get("mcp-session-id")}`));
    });
    const client = await connect(server);
    expect((await failure(client.callTool("echo", {}))).message).toContain("503");
    expect((await client.callTool("echo", {})).content[0]?.text).toBe("in session-2");
    // Never a call without a session.
    expect(server.posts("tools/call").map((r) => r.headers.get("mcp-session-id"))).toEqual(["session-1", "session-2"]);
  });
});
