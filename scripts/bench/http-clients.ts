/**
 * The ways of driving the bench HTTP server: cat-code's client, the SDK's client, and a raw fetch
 * loop that POSTs the same `tools/call` body with the session's headers and reads the whole answer,
 * with no MCP layer (the floor the server and HTTP set).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpClient } from "../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../src/mcp/transport/http-transport.ts";
import { BUN, SDK_HTTP_SERVER } from "./paths.ts";

export type HttpMode = "json" | "sse";
export type HttpClientKind = "cat-code" | "sdk" | "raw";

export interface HttpConnection {
  call(tool: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** A running bench HTTP server; `stop` kills it. */
export interface HttpServer {
  url: string;
  stop(): Promise<void>;
}

export async function startHttpServer(mode: HttpMode): Promise<HttpServer> {
  const child = Bun.spawn([BUN, SDK_HTTP_SERVER, "--mode", mode, "--big"], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/PORT (\d+)/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the bench HTTP server (${mode}) exited before it listened`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const port = /PORT (\d+)/.exec(text)![1];
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}

export async function connectHttp(kind: HttpClientKind, url: string): Promise<HttpConnection> {
  if (kind === "cat-code") {
    const client = new McpClient(new HttpTransport({ url, headers: {} }), { timeoutMs: 120_000 });
    await client.connect();
    return { call: (tool, args) => client.callTool(tool, args), close: () => client.close() };
  }
  if (kind === "sdk") {
    const client = new Client({ name: "bench", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    return {
      call: (tool, args) => client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 }),
      async close() {
        await transport.terminateSession().catch(() => {});
        await client.close();
      },
    };
  }
  return connectRawHttp(url);
}

/** The raw floor: one handshake done by hand, then each call is one fetch and one full read. */
async function connectRawHttp(url: string): Promise<HttpConnection> {
  const accept = "application/json, text/event-stream";
  const initialize = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await initialize.text();
  const sessionId = initialize.headers.get("mcp-session-id") ?? "";
  const headers = { "content-type": "application/json", accept, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  let id = 1;
  return {
    async call(tool, args) {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: tool, arguments: args } }),
      });
      return response.text();
    },
    async close() {
      await (await fetch(url, { method: "DELETE", headers })).text();
    },
  };
}
