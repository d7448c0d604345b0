import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { initializeResult, textResult } from "../../../../fixtures/http/scripted-server.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

/** The headers of the entry: each must stay with the origin it was configured for. */
const HEADERS = { "X-Api-Key": "key-SECRET-1", Authorization: "Bearer token-SECRET-2" };

const { serve, keep } = scriptedServers();

function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { Location: location } });
}

async function connect(url: string): Promise<{ client: McpClient; transport: HttpTransport }> {
  const transport = new HttpTransport({ url, headers: HEADERS }, { defaultRetryMs: 5, maxNotificationStreamFailures: 2 });
  const client = new McpClient(transport, { timeoutMs: 5_000 });
  keep(client);
  await client.connect();
  return { client, transport };
}

describe("HTTP redirects to another origin are never followed", () => {
  for (const status of [307, 308]) {
    test(`a ${status} on initialize fails naming both URLs; the other origin receives nothing`, async () => {
      const elsewhere = serve();
      const server = serve(() => redirect(status, `${elsewhere.origin}/collect?token=STOLEN`));
      const client = new McpClient(new HttpTransport({ url: `${server.url}?key=URL-SECRET`, headers: HEADERS }));
      keep(client);
      const error = await failure(client.connect());
      expect(error.message).toBe(
        `the server at ${server.url}?key=*** redirected POST (${status}) to another origin, ${elsewhere.origin}/collect?token=***; cat-code follows no redirect to another origin, so the entry's headers are not sent there. If the server moved, put the new address in the entry's "url"`,
      );
      expect(error.status).toBe(status);
      expect(error.url).toBe(`${server.url}?key=***`);
      expect(elsewhere.requests).toHaveLength(0);
      expect(client.state.status).toBe("failed");
    });
  }

  test("a redirected tools/call sends neither the session, the headers nor the arguments elsewhere", async () => {
    const elsewhere = serve();
    const server = serve(({ body }) => (body?.method === "tools/call" ? redirect(307, `${elsewhere.url}`) : undefined));
    const { client } = await connect(server.url);
    const error = await failure(client.callTool("echo", { secretArgument: "ARG-SECRET" }));
    expect(error.message).toContain(`redirected POST (307) to another origin, ${elsewhere.url}`);
    expect(elsewhere.requests).toHaveLength(0);
    expect(client.state.status).toBe("connected");
  });

  test("a redirected GET notification stream and a redirected DELETE send nothing elsewhere", async () => {
    const elsewhere = serve();
    const server = serve(({ method, body }) => {
      if (body?.method === "initialize") {
        return Response.json(initializeResult(body.id, { tools: { listChanged: true } }), { headers: { "Mcp-Session-Id": "session-1" } });
      }
      if (method === "GET" || method === "DELETE") return redirect(308, elsewhere.url);
    });
    const { client, transport } = await connect(server.url);
    await waitFor(() => transport.notificationStreamState === "given-up", "the GET stream to be given up");
    expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(2);
    await client.close();
    expect(server.requests.at(-1)!.method).toBe("DELETE");
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe("HTTP redirects within the origin", () => {
  for (const status of [301, 302, 307, 308]) {
    test(`a ${status} to another path is followed with the same method, headers, session and body`, async () => {
      const server = serve((request) => {
        if (request.path === "/mcp") return redirect(status, "/v2/mcp");
        if (request.body?.method === "tools/call") return Response.json(textResult(request.body.id, `got ${request.body.params.arguments.text}`));
      });
      const { client } = await connect(server.url);
      expect((await client.callTool("echo", { text: "hi" })).content[0]?.text).toBe("got hi");
      await client.close();
      // The standalone GET is followed too, in its own time: left out of the order.
      const moved = server.requests.filter((r) => r.path === "/v2/mcp" && r.method !== "GET");
      expect(moved.map((r) => r.body?.method ?? r.method)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/call", "DELETE"]);
      for (const request of moved) {
        expect(request.headers.get("x-api-key")).toBe(HEADERS["X-Api-Key"]);
        expect(request.headers.get("authorization")).toBe(HEADERS.Authorization);
      }
      expect(moved.slice(2).map((r) => r.headers.get("mcp-session-id"))).toEqual(["session-1", "session-1", "session-1"]);
    });
  }

  test("a 303 answer to a POST is not repeated: the server says it handled it already", async () => {
    const server = serve(({ path, body }) => (path === "/mcp" && body?.method === "tools/call" ? redirect(303, "/result/1") : undefined));
    const { client } = await connect(server.url);
    const error = await failure(client.callTool("echo", {}));
    expect(error.message).toContain(`answered POST with 303 See Other (to ${server.origin}/result/1)`);
    expect(server.posts("tools/call")).toHaveLength(1);
  });

  test("a redirect loop fails after a few hops instead of spinning", async () => {
    const server = serve(({ path, body }) => {
      if (body?.method !== "tools/call") return undefined;
      return redirect(307, path === "/mcp" ? "/a" : "/mcp");
    });
    const { client } = await connect(server.url);
    const error = await failure(client.callTool("echo", {}));
    expect(error.message).toContain("redirected more than 5 times in a row");
    expect(server.posts("tools/call")).toHaveLength(6);
  });
});
