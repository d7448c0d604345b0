/**
 * `cat-code mcp serve --http` (the compiled binary) as the official clients and a stranger see it:
 * the SDK v1 client (Streamable HTTP, a handshake session) and the SDK v2 client in both modes list
 * and call tools of the fixture servers behind it with the bearer token; without the token a
 * request is 401, from a web page of another origin or a rebound host name 403, and the token file
 * is the user's alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { catCode } from "../../helpers/binary.ts";
import type { AnnouncedProcess } from "../../helpers/listening-fixture.ts";
import { resultText, serveHttpProcess } from "../../helpers/served-http.ts";
import { BUN, ECHO_SERVER, MODERN_SERVER, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

let served: AnnouncedProcess<"ignore">;
let url: string;
let token: string;
let home: string;

beforeAll(async () => {
  home = tempDir();
  const config = writeConfig({
    echo: { command: ECHO_SERVER },
    modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] },
    dual: { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
  });
  served = await serveHttpProcess([...catCode(), "mcp", "serve", "--http", "--mcp-config", config], home);
  url = served.match[1] as string;
  token = served.match[2] as string;
}, 120_000);

afterAll(async () => {
  // SIGTERM: the endpoint closes its servers, as on any signal.
  served?.child.kill("SIGTERM");
  await served?.child.exited;
});

const authorized = () => ({ headers: { Authorization: `Bearer ${token}` } });

test("the token is printed once and kept 0600 in the app home", () => {
  expect(statSync(join(home, "serve-token")).mode & 0o777).toBe(0o600);
  expect(served.output().split(token).length - 1).toBe(1);
});

test("the SDK v1 client lists and calls tools over a handshake session, and hears a call's progress", async () => {
  const client = new ClientV1({ name: "sdk-v1-http", version: "1.0.0" });
  await client.connect(new HttpV1(new URL(url), { requestInit: authorized() }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo__echo", "modern__echo"]));
    expect(resultText(await client.callTool({ name: "modern__echo", arguments: { text: "v1 over http" } }))).toBe("v1 over http");
    // Progress comes on the call's own event stream, before its result.
    const updates: number[] = [];
    await client.callTool({ name: "dual__slow_progress", arguments: { steps: 3, delayMs: 1 } }, undefined, { onprogress: (progress) => updates.push(progress.progress) });
    expect(updates).toEqual([1, 2, 3]);
  } finally {
    await client.close();
  }
});

describe("the SDK v2 client", () => {
  for (const [mode, version] of [
    ["default", "2025-11-25"],
    ["auto", "2026-07-28"],
  ] as const) {
    test(`(${mode} version negotiation) speaks ${version}, calls a tool and hears its progress`, async () => {
      const client = new ClientV2({ name: "sdk-v2-http", version: "2.4.0" }, mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {});
      await client.connect(new HttpV2(new URL(url), { requestInit: authorized() }));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        expect(resultText(await client.callTool({ name: "echo__echo", arguments: { text: `v2 ${mode}` } }))).toBe(`v2 ${mode}`);
        const updates: number[] = [];
        await client.callTool({ name: "dual__slow_progress", arguments: { steps: 2, delayMs: 1 } }, { onprogress: (progress) => updates.push(progress.progress) });
        expect(updates).toEqual([1, 2]);
      } finally {
        await client.close();
      }
    });
  }
});

describe("what the endpoint refuses", () => {
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } });
  const post = (headers: Record<string, string>, body = initialize) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

  test("a request without the token, or with another, is 401 and says how to send it", async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await post({ Authorization: `Bearer ${"0".repeat(64)}` })).status).toBe(401);
  });

  test("a web page of another origin, or a rebound host name, is 403 even with the token", async () => {
    expect((await post({ ...authorized().headers, Origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ ...authorized().headers, Host: "evil.example" })).status).toBe(403);
    expect((await post({ ...authorized().headers, Origin: new URL(url).origin })).status).toBe(200);
  });

  test("a session nobody opened is 404; a request with no session and no _meta is 400", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect((await post({ ...authorized().headers, "Mcp-Session-Id": "made-up" }, list)).status).toBe(404);
    expect((await post(authorized().headers, list)).status).toBe(400);
  });

  test("a 2026-07-28 request whose headers disagree with its body is 400 -32020", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } });
    const response = await post({ ...authorized().headers, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call" }, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });
});
