import { afterEach, describe, expect, test } from "bun:test";
import { initializeResult, result, ScriptedServer, sseEvent, sseResponse, type RecordedRequest } from "../../../fixtures/http/scripted-server.ts";
import type { ServerAuthorizer } from "../../../src/mcp/auth/server-authorizer.ts";
import { McpClient } from "../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../src/mcp/transport/http-transport.ts";
import { runBinary } from "../../helpers/binary.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";

/**
 * A server that quotes back the credentials it received (in a refusal, an error, a tool's error
 * result, a log notification) must not get them printed: every configured header value and every
 * token sent is masked wherever its text is shown. The servers are real HTTP servers on 127.0.0.1.
 */
const TOKEN = "tok-Echo-4410"; // from ${ECHO_TOKEN}
const KEY = "key-Literal-7731"; // written as it is in the user's own file
const OAUTH = "oauth-Access-5520"; // what an authorizer hands the transport

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** What the request carried, as a careless server would quote it. */
const quoted = (request: RecordedRequest) => `got Authorization=${request.headers.get("authorization")} X-Api-Key=${request.headers.get("x-api-key")}`;

function server(script: (request: RecordedRequest) => Response | undefined): ScriptedServer {
  const started = new ScriptedServer((request) => script(request));
  opened.push({ close: () => started.stop() });
  return started;
}

function cli(url: string, ...args: string[]) {
  const config = writeConfig({ echo: { url, headers: { Authorization: "Bearer ${ECHO_TOKEN}", "X-Api-Key": KEY } } });
  return runBinary(["mcp", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir(), ECHO_TOKEN: TOKEN } });
}

function expectMasked(...outputs: string[]) {
  const all = outputs.join("\n");
  expect(all).toContain("***");
  for (const secret of [TOKEN, KEY]) expect(all).not.toContain(secret);
}

describe("a server that echoes the credentials it received", () => {
  test("in a refusal of initialize: mcp list and mcp call show its reason with every header value masked", async () => {
    const refusing = server((request) => (request.body?.method === "initialize" ? new Response(quoted(request), { status: 403 }) : undefined));
    const list = await cli(refusing.url, "list");
    expect(list.stdout).toContain("echo  FAILED");
    expect(list.stdout).toContain("answered 403 Forbidden: got Authorization=*** X-Api-Key=***");
    const call = await cli(refusing.url, "call", "echo", "echo");
    expect(call.exitCode).not.toBe(0);
    expect(call.stderr).toContain("got Authorization=*** X-Api-Key=***");
    expectMasked(list.stdout, list.stderr, call.stdout, call.stderr);
  });

  test("in a tools/call error and in a tool's error result: mcp call masks both", async () => {
    const tools = [{ name: "fail", inputSchema: { type: "object" } }, { name: "whoami", inputSchema: { type: "object" } }];
    const echoing = server((request) => {
      const { id, method, params } = request.body ?? {};
      if (method === "initialize") return Response.json(initializeResult(id));
      if (method === "tools/list") return Response.json(result(id, { tools }));
      if (method === "tools/call" && params?.name === "fail") return Response.json({ jsonrpc: "2.0", id, error: { code: -32000, message: quoted(request) } });
      if (method === "tools/call") return Response.json(result(id, { isError: true, content: [{ type: "text", text: quoted(request) }] }));
      return undefined;
    });
    const failed = await cli(echoing.url, "call", "echo", "fail");
    expect(failed.stderr).toContain("failed: got Authorization=*** X-Api-Key=***");
    const errorResult = await cli(echoing.url, "call", "echo", "whoami");
    expect(errorResult.stdout).toContain("got Authorization=*** X-Api-Key=***");
    expectMasked(failed.stdout, failed.stderr, errorResult.stdout, errorResult.stderr);
  });

  test("in a warning it logs and in every string of an error result: mcp call --raw prints none of them", async () => {
    const tools = [{ name: "whoami", inputSchema: { type: "object" } }];
    const echoing = server((request) => {
      const { id, method } = request.body ?? {};
      if (method === "initialize") return Response.json(initializeResult(id, { tools: {}, logging: {} }));
      if (method === "tools/list") return Response.json(result(id, { tools }));
      if (method !== "tools/call") return undefined;
      const authorization = request.headers.get("authorization");
      const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", data: { note: quoted(request) } } };
      const answer = result(id, {
        isError: true,
        content: [{ type: "resource", resource: { uri: "mem://whoami", text: quoted(request) } }],
        structuredContent: { received: { authorization }, [`key ${authorization}`]: 1 },
      });
      return sseResponse(sseEvent({ data: log }) + sseEvent({ data: answer }));
    });
    const { stdout, stderr } = await cli(echoing.url, "call", "echo", "whoami", "--raw");
    expect(stderr).toContain("⚠ echo: {\"note\":\"got Authorization=*** X-Api-Key=***\"}");
    expect(stdout).toContain('"authorization": "***"');
    expect(stdout).toContain('"key ***": 1');
    expect(stdout).toContain('"text": "got Authorization=*** X-Api-Key=***"');
    expectMasked(stdout, stderr);
  });

  test("an OAuth token the transport sent is masked in the client's error", async () => {
    const refusing = server((request) => (request.body?.method === "initialize" ? new Response(quoted(request), { status: 403 }) : undefined));
    // OAuth's side of the contract only: a token to send, and no say in the refusal.
    const authorizer = { authorization: async () => `Bearer ${OAUTH}`, refused: async () => false } as unknown as ServerAuthorizer;
    const client = new McpClient(new HttpTransport({ url: refusing.url, headers: {}, authorizer }));
    opened.push(client);
    const error = (await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(refusing.requests.some((request) => request.headers.get("authorization") === `Bearer ${OAUTH}`)).toBe(true);
    expect(error.message).toContain("got Authorization=*** X-Api-Key=null");
    expect(error.message).not.toContain(OAUTH);
    expect(client.state).toEqual({ status: "failed", reason: error.message });
  });
});
