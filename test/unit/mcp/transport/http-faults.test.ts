import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport, type HttpTransportOptions } from "../../../../src/mcp/transport/http-transport.ts";
import {
  ScriptedServer,
  silence,
  sseEvent,
  sseResponse,
  textResult,
  trickle,
  type RecordedRequest,
  type Script,
} from "../../../../fixtures/http/scripted-server.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const SECRET = "Bearer sekrit-value-123";

const { serve, keep } = scriptedServers();

async function connect(
  server: ScriptedServer,
  options: { headers?: Record<string, string>; timeoutMs?: number; transport?: HttpTransportOptions } = {},
): Promise<{ client: McpClient; transport: HttpTransport; notifications: JsonRpcNotification[] }> {
  const transport = new HttpTransport({ url: server.url, headers: options.headers ?? {} }, options.transport);
  const notifications: JsonRpcNotification[] = [];
  const client = new McpClient(transport, { timeoutMs: options.timeoutMs ?? 5_000, onNotification: (n) => notifications.push(n) });
  keep(client);
  await client.connect();
  return { client, transport, notifications };
}

/** A GET that resumes a request's stream, not the standalone GET every session opens. */
const isResumption = (request: RecordedRequest): boolean => request.method === "GET" && request.headers.has("last-event-id");

/** Answers tools/call (only) with the script's response. */
function onCall(answer: (id: number, request: Parameters<Script>[0]) => Response | Promise<Response>): Script {
  return (request) => (request.body?.method === "tools/call" ? answer(request.body.id, request) : undefined);
}

describe("HttpTransport answers and streams", () => {
  test("requests and notifications the server sends before the response are handled on the same stream", async () => {
    const server = serve((request, self) => {
      const { body } = request;
      if (body?.method !== "tools/call") return undefined;
      const encoder = new TextEncoder();
      return sseResponse(
        new ReadableStream({
          async start(controller) {
            const send = (data: unknown) => controller.enqueue(encoder.encode(sseEvent({ data })));
            send({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
            send({ jsonrpc: "2.0", id: "srv-ping", method: "ping" });
            send({ jsonrpc: "2.0", id: "srv-sample", method: "sampling/createMessage", params: {} });
            // The response comes only once both answers were POSTed back.
            await self.waitFor((r) => r.body?.id === "srv-ping" && !r.body.method);
            await self.waitFor((r) => r.body?.id === "srv-sample" && !r.body.method);
            send(textResult(body.id, "after the questions"));
            controller.close();
          },
        }),
      );
    });
    const { client, notifications } = await connect(server);
    const result = await client.callTool("chatty", {});
    expect(result.content[0]?.text).toBe("after the questions");
    expect(notifications.map((n) => n.method)).toEqual(["notifications/progress"]);
    const ping = server.requests.find((r) => r.body?.id === "srv-ping" && !r.body.method)!;
    expect(ping.body).toEqual({ jsonrpc: "2.0", id: "srv-ping", result: {} });
    expect(ping.headers.get("mcp-session-id")).toBe("session-1");
    const refused = server.requests.find((r) => r.body?.id === "srv-sample" && !r.body.method)!;
    expect(refused.body.error.code).toBe(-32601);
  });

  test("the stream's job ends with its response: the reader stops even if the server keeps it open", async () => {
    const server = serve(
      onCall((id) => {
        const encoder = new TextEncoder();
        return sseResponse(
          new ReadableStream({
            start(controller) {
              controller.enqueue(encoder.encode(sseEvent({ data: textResult(id, "early") })));
              // ...and never closes.
            },
          }),
        );
      }),
    );
    const { client } = await connect(server);
    expect((await client.callTool("x", {})).content[0]?.text).toBe("early");
  });

  test("a stream that closes after a priming event resumes with GET and Last-Event-ID after the server's retry", async () => {
    const server = serve((request) => {
      if (request.body?.method === "tools/call") return sseResponse(sseEvent({ id: "evt-1", retry: 300, data: "" }));
      if (isResumption(request)) {
        const call = server.posts("tools/call")[0]!;
        return sseResponse(sseEvent({ id: "evt-2", data: textResult(call.body.id, "resumed") }));
      }
    });
    const { client } = await connect(server);
    const started = performance.now();
    const result = await client.callTool("slow", {});
    const elapsed = performance.now() - started;
    expect(result.content[0]?.text).toBe("resumed");
    const gets = server.requests.filter(isResumption);
    expect(gets).toHaveLength(1);
    expect(gets[0]!.headers.get("last-event-id")).toBe("evt-1");
    expect(gets[0]!.headers.get("accept")).toContain("text/event-stream");
    expect(gets[0]!.headers.get("mcp-session-id")).toBe("session-1");
    expect(gets[0]!.headers.get("mcp-protocol-version")).toBe("2025-11-25");
    // The server asked for 300 ms before the reconnection.
    expect(elapsed).toBeGreaterThanOrEqual(280);
  });

  test("a stream that keeps dropping without bringing anything fails after a few tries", async () => {
    const server = serve((request) => {
      if (request.body?.method === "tools/call") return sseResponse(sseEvent({ id: "evt-1", retry: 10, data: "" }));
      if (isResumption(request)) return sseResponse("");
    });
    const { client } = await connect(server);
    const error = await failure(client.callTool("slow", {}));
    expect(error.message).toContain("3 attempts to resume");
    expect(server.requests.filter(isResumption)).toHaveLength(3);
  });

  test("a stream that ends before its response with no event id fails at once", async () => {
    const server = serve(onCall(() => sseResponse(": nothing to see\n\n")));
    const { client } = await connect(server);
    const error = await failure(client.callTool("x", {}));
    expect(error.message).toContain("no event id to resume from");
    expect(server.requests.filter(isResumption)).toHaveLength(0);
  });

  test("a notification answered 200 with a JSON body is accepted and the body ignored", async () => {
    const server = serve((request) =>
      request.body && request.body.id === undefined ? Response.json({ unexpected: "but fine" }) : undefined,
    );
    const { client } = await connect(server);
    await client.connection.notify("notifications/roots/list_changed");
    expect(server.posts("notifications/roots/list_changed")).toHaveLength(1);
  });

  test("a response split across tiny chunks, mid-line and mid-UTF-8 character, arrives whole", async () => {
    const text = "你好, мир ✓ 😀 — done";
    const server = serve(
      onCall((id) => {
        const bytes = new TextEncoder().encode(`: hello\r\nid: 1\r\ndata: ${JSON.stringify(textResult(id, text))}\r\n\r\n`);
        const pieces: Uint8Array[] = [];
        for (let i = 0; i < bytes.length; i += 3) pieces.push(bytes.slice(i, i + 3));
        return sseResponse(trickle(pieces));
      }),
    );
    const { client } = await connect(server);
    expect((await client.callTool("x", {})).content[0]?.text).toBe(text);
  });

  for (const kind of ["SSE", "JSON"] as const) {
    test(`a 32 MB answer over ${kind} arrives whole and in linear time`, async () => {
      const size = 32 * 1024 * 1024;
      const server = serve(
        onCall((id) => {
          const body = new TextEncoder().encode(JSON.stringify(textResult(id, "x".repeat(size))));
          const pieces: Uint8Array[] = [];
          for (let i = 0; i < body.length; i += 16 * 1024) pieces.push(body.subarray(i, i + 16 * 1024));
          if (kind === "JSON") return new Response(trickle(pieces, 0), { headers: { "Content-Type": "application/json" } });
          const encoder = new TextEncoder();
          return sseResponse(trickle([encoder.encode("id: big\ndata: "), ...pieces, encoder.encode("\n\n")], 0));
        }),
      );
      const { client } = await connect(server, { timeoutMs: 20_000 });
      const started = performance.now();
      const result = await client.callTool("big", {});
      const elapsed = performance.now() - started;
      expect(result.content[0]?.text?.length).toBe(size);
      // Measured at a few hundred ms; quadratic re-joining would take minutes.
      expect(elapsed).toBeLessThan(10_000);
    });
  }
});

describe("HttpTransport errors", () => {
  test("a 500 with a JSON-RPC error body fails with that error's code and message", async () => {
    const server = serve(
      onCall((id) => Response.json({ jsonrpc: "2.0", id, error: { code: -32050, message: "the database is on fire" } }, { status: 500 })),
    );
    const { client } = await connect(server);
    const error = await failure(client.callTool("x", {}));
    expect(error.code).toBe(-32050);
    expect(error.message).toBe("the database is on fire");
    // The status is not lost behind the JSON-RPC error.
    expect(error.status).toBe(500);
    expect(error.url).toBe(server.url);
  });

  test("a 500 with an HTML page fails with the status and the start of the body", async () => {
    const page = `<html><body><h1>Internal Server Error</h1>${"<p>filler</p>".repeat(500)}<p>THE-END</p></body></html>`;
    const server = serve(onCall(() => new Response(page, { status: 500, headers: { "Content-Type": "text/html" } })));
    const { client } = await connect(server);
    const error = await failure(client.callTool("x", {}));
    expect(error.message).toContain("answered 500");
    expect(error.message).toContain("<h1>Internal Server Error</h1>");
    expect(error.message).not.toContain("THE-END");
    expect(error.message.length).toBeLessThan(400);
  });

  test("a 401 asks for headers in the entry and never shows a header value", async () => {
    const server = serve((request) => (request.body?.method === "initialize" ? new Response("denied", { status: 401 }) : undefined));
    const transport = new HttpTransport({ url: server.url, headers: { Authorization: SECRET } });
    const client = new McpClient(transport);
    keep(client);
    const error = await failure(client.connect());
    expect(error.message).toContain("401");
    expect(error.message).toContain('"headers"');
    expect(error.message).not.toContain("sekrit");
    expect(client.state).toEqual({ status: "failed", reason: error.message });
  });

  test("a server that never answers times out, and is told notifications/cancelled", async () => {
    const server = serve(onCall(() => sseResponse(silence())));
    const { client } = await connect(server, { timeoutMs: 300 });
    const error = await failure(client.callTool("hang", {}));
    expect(error.isTimeout).toBe(true);
    const call = server.posts("tools/call")[0]!;
    const cancelled = await server.waitFor((r) => r.body?.method === "notifications/cancelled");
    expect(cancelled.body.params.requestId).toBe(call.body.id);
    expect(cancelled.body.params.reason).toContain("timed out");
    expect(cancelled.headers.get("mcp-session-id")).toBe("session-1");
    // The hanging fetch itself was given up, not left open.
    await waitFor(() => call.signal.aborted, "the hanging POST to be given up");
  });

  test("an initialize that times out is not cancelled", async () => {
    const server = serve((request) => (request.body?.method === "initialize" ? sseResponse(silence()) : undefined));
    const client = new McpClient(new HttpTransport({ url: server.url, headers: {} }), { timeoutMs: 200 });
    keep(client);
    const error = await failure(client.connect());
    expect(error.isTimeout).toBe(true);
    // A cancellation would be POSTed as the request is given up: wait for that moment to pass at the
    // server (it sees the abandoned POST end), then for a later message of ours to arrive after it.
    const initialize = server.posts("initialize")[0]!;
    await waitFor(() => initialize.signal.aborted, "the server to see initialize given up");
    await fetch(server.url, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/marker" }) });
    expect(server.posts("notifications/marker")).toHaveLength(1);
    expect(server.posts("notifications/cancelled")).toHaveLength(0);
  });

  test("connection refused fails connect with 'cannot reach <url>'", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const url = `http://127.0.0.1:${probe.port}/mcp`;
    await probe.stop(true);
    const client = new McpClient(new HttpTransport({ url, headers: { Authorization: SECRET } }));
    const error = await failure(client.connect());
    expect(error.message).toStartWith(`cannot reach ${url}: `);
    expect(error.message).not.toContain("sekrit");
    expect(client.state.status).toBe("failed");
  });

  test("an answer of neither JSON nor SSE fails with what came instead", async () => {
    const server = serve(onCall(() => new Response("plain words", { headers: { "Content-Type": "text/plain" } })));
    const { client } = await connect(server);
    const error = await failure(client.callTool("x", {}));
    expect(error.message).toContain("content type text/plain");
  });

  for (const kind of ["SSE", "JSON"] as const) {
    test(`an error with a null id on the request's own ${kind} answer fails that request, its message bounded`, async () => {
      const error = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x".repeat(5_000_000) } };
      const server = serve(onCall(() => (kind === "JSON" ? Response.json(error) : sseResponse(sseEvent({ data: error })))));
      const { client } = await connect(server);
      const failed = await failure(client.callTool("x", {}));
      expect(failed.code).toBe(-32700);
      expect(failed.message).toStartWith("x".repeat(4000));
      expect(failed.message).toEndWith("more characters not shown)");
      expect(client.state.status).toBe("connected");
    });
  }

  test("a JSON-RPC error in the body of an HTTP 400 fails the call with its message cut at 4,000 characters", async () => {
    const error = { jsonrpc: "2.0", id: null, error: { code: -32602, message: "y".repeat(50_000) } };
    const server = serve(onCall(() => Response.json(error, { status: 400 })));
    const { client } = await connect(server);
    const failed = await failure(client.callTool("x", {}));
    expect(failed.code).toBe(-32602);
    expect(failed.status).toBe(400);
    expect(failed.message).toStartWith("y".repeat(4000));
    expect(failed.message).toEndWith("more characters not shown)");
  });

  test("a JSON answer without the response to the request fails instead of hanging", async () => {
    const server = serve(onCall(() => Response.json({ jsonrpc: "2.0", method: "notifications/message", params: {} })));
    const { client } = await connect(server);
    const error = await failure(client.callTool("x", {}));
    expect(error.message).toContain("without a response");
  });

  test("a rejected notification fails notify with the status", async () => {
    const server = serve((request) =>
      request.body?.method === "notifications/roots/list_changed" ? new Response("nope", { status: 400 }) : undefined,
    );
    const { client } = await connect(server);
    const error = await failure(client.connection.notify("notifications/roots/list_changed"));
    expect(error.message).toContain("answered 400");
  });
});
