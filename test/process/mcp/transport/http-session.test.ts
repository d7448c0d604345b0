import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { ScriptedServer, silence, sseResponse, textResult } from "../../../../fixtures/http/scripted-server.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const REPO = join(import.meta.dir, "..", "..", "..", "..");
const SECRET = "Bearer sekrit-value-123";

const { serve, keep } = scriptedServers();

async function connect(server: ScriptedServer, headers: Record<string, string> = {}): Promise<{ client: McpClient; transport: HttpTransport }> {
  const transport = new HttpTransport({ url: server.url, headers });
  const client = new McpClient(transport, { timeoutMs: 5_000 });
  keep(client);
  await client.connect();
  return { client, transport };
}

describe("HttpTransport sessions and headers", () => {
  test("every POST has the JSON content type, both accept types and the configured headers", async () => {
    const server = serve();
    const { client } = await connect(server, { Authorization: SECRET, "X-Team": "cats" });
    await client.listTools();
    const posts = server.requests.filter((r) => r.method === "POST");
    // The modern probe first: the scripted server answers it 200 -32601, a legacy server's way.
    expect(posts.map((r) => r.body.method)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list"]);
    for (const post of posts) {
      expect(post.headers.get("content-type")).toBe("application/json");
      expect(post.headers.get("accept")).toBe("application/json, text/event-stream");
      expect(post.headers.get("authorization")).toBe(SECRET);
      expect(post.headers.get("x-team")).toBe("cats");
    }
  });

  test("the session id from initialize and the negotiated version go on every later request, not on initialize", async () => {
    const server = serve();
    const { client } = await connect(server);
    await client.listTools();
    await server.waitFor((r) => r.method === "GET");
    const [probe, initialize, ...later] = server.requests;
    expect(probe!.headers.get("mcp-session-id")).toBeNull();
    expect(probe!.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(initialize!.headers.get("mcp-session-id")).toBeNull();
    expect(initialize!.headers.get("mcp-protocol-version")).toBeNull();
    // notifications/initialized, tools/list and the standalone GET.
    expect(later).toHaveLength(3);
    for (const request of later) {
      expect(request.headers.get("mcp-session-id")).toBe("session-1");
      expect(request.headers.get("mcp-protocol-version")).toBe("2025-11-25");
    }
  });

  test("a 404 on an expired session starts a new one and retries once", async () => {
    let expired = false;
    const server = serve(({ headers, body }) => {
      if (body?.method === "tools/call" && headers.get("mcp-session-id") === "session-1" && !expired) {
        expired = true;
        return new Response("session gone", { status: 404 });
      }
      if (body?.method === "tools/call") return Response.json(textResult(body.id, `answered in ${headers.get("mcp-session-id")}`));
    });
    const { client } = await connect(server);
    const result = await client.callTool("echo", {});
    expect(result.content[0]?.text).toBe("answered in session-2");
    const initializes = server.posts("initialize");
    expect(initializes).toHaveLength(2);
    // The new session is asked for exactly as the client asked the first time, with no session id.
    expect(initializes[1]!.body.params).toEqual(initializes[0]!.body.params);
    expect(initializes[1]!.headers.get("mcp-session-id")).toBeNull();
    const initialized = server.posts("notifications/initialized");
    expect(initialized.map((r) => r.headers.get("mcp-session-id"))).toEqual(["session-1", "session-2"]);
    expect(server.posts("tools/call")).toHaveLength(2);
    expect(client.state.status).toBe("connected");
  });

  test("a second 404 right after a new session fails with a clear error", async () => {
    const server = serve(({ body }) => (body?.method === "tools/call" ? new Response(null, { status: 404 }) : undefined));
    const { client } = await connect(server);
    const error = await client.callTool("echo", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as Error).message).toContain("404 twice");
    expect(server.posts("initialize")).toHaveLength(2);
    expect(server.posts("tools/call")).toHaveLength(2);
  });

  test("requests that hit the same expiry share one new session", async () => {
    const server = serve(({ headers, body }) => {
      if (body?.method !== "tools/call") return undefined;
      if (headers.get("mcp-session-id") === "session-1") return new Response(null, { status: 404 });
      return Response.json(textResult(body.id, "ok"));
    });
    const { client } = await connect(server);
    const results = await Promise.all([client.callTool("a", {}), client.callTool("b", {}), client.callTool("c", {})]);
    expect(results.map((r) => r.content[0]?.text)).toEqual(["ok", "ok", "ok"]);
    expect(server.posts("initialize")).toHaveLength(2);
  });

  test("a 404 without a session id is a plain error, not an expiry", async () => {
    const server = serve(({ body }) => {
      if (body?.method === "initialize") return Response.json({ jsonrpc: "2.0", id: body.id, result: { protocolVersion: "2025-11-25" } });
      if (body?.method === "tools/call") return new Response("no such thing", { status: 404 });
    });
    const { client } = await connect(server);
    await expect(client.callTool("echo", {})).rejects.toThrow(/answered 404.*no such thing/);
    expect(server.posts("initialize")).toHaveLength(1);
  });

  test("close deletes the session, fails what is pending, and is safe to call twice", async () => {
    const server = serve(({ body }) => (body?.method === "tools/call" ? sseResponse(silence()) : undefined));
    const { client, transport } = await connect(server);
    const call = client.callTool("slow", {}).catch((error: unknown) => error);
    await server.waitFor((r) => r.body?.method === "tools/call");
    await Promise.all([transport.close(), transport.close()]);
    expect(((await call) as Error).message).toContain("closed");
    const deletes = server.requests.filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.headers.get("mcp-session-id")).toBe("session-1");
    await transport.close();
    expect(server.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    await expect(client.connection.request("tools/list")).rejects.toThrow(/closed/);
  });

  test("a DELETE answered 405 or never answered does not hold up close", async () => {
    const server = serve(({ method }) => (method === "DELETE" ? new Promise<Response>(() => {}) : undefined));
    const transport = new HttpTransport({ url: server.url, headers: {} }, { closeTimeoutMs: 200 });
    const client = new McpClient(transport);
    await client.connect();
    const started = performance.now();
    await client.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests.at(-1)!.method).toBe("DELETE");

    const refusing = serve(({ method }) => (method === "DELETE" ? new Response(null, { status: 405 }) : undefined));
    const other = new McpClient(new HttpTransport({ url: refusing.url, headers: {} }));
    await other.connect();
    await other.close();
    expect(other.state.status).toBe("closed");
  });

  test("a process that used the transport exits by itself after close", async () => {
    const server = serve(({ body }) => (body?.method === "tools/call" ? sseResponse(`data: ${JSON.stringify(textResult(body.id, "done"))}\n\n`) : undefined));
    const child = Bun.spawn([process.execPath, join(REPO, "fixtures", "http", "use-and-close.ts"), server.url], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
    clearTimeout(killer);
    expect(stdout.trim()).toBe("done");
    expect(child.signalCode).toBeNull();
    expect(code).toBe(0);
  });
});
