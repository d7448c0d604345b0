import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as v from "valibot";
import * as z from "zod";
import { sendWithInputRounds } from "../../../../src/mcp/client/input-required.ts";
import { buildParamHeaders, checkParamHeaders } from "../../../../src/mcp/client/mcp-param-headers.ts";
import { withRequestMeta } from "../../../../src/mcp/client/request-meta.ts";
import { chooseVersion, isModernError, versionAfterRejection } from "../../../../src/mcp/client/version-negotiation.ts";
import { encodeHeaderValue } from "../../../../src/mcp/header-value.ts";
import { DiscoverResult, MetaKey, type InputRequest } from "../../../../src/mcp/stateless-protocol.ts";

/**
 * The pure units of the 2026-07-28 revision against servers no one here wrote: the SDK v2 server
 * (`createMcpHandler`, which checks `_meta`, `Mcp-Name` and `Mcp-Param-*` against the body) and the
 * SDK v1 server (a legacy peer), each on a real socket on 127.0.0.1.
 */

let modern: ReturnType<typeof Bun.serve>;
let handler: ReturnType<typeof createMcpHandler>;

beforeAll(() => {
  handler = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk-v2-peer", version: "1.0.0" });
    const inputSchema = z.object({ region: z.string().meta({ "x-mcp-header": "Region" }), priority: z.number().int().meta({ "x-mcp-header": "Priority" }) });
    const echo = async ({ region, priority }: { region: string; priority: number }) => ({ content: [{ type: "text" as const, text: JSON.stringify({ region, priority }) }] });
    server.registerTool("where", { description: "Echoes its routed arguments", inputSchema }, echo);
    // The SDK warns (on every request: one instance each) that the name breaks its naming advice.
    const warn = console.warn;
    console.warn = () => {};
    try {
      server.registerTool("météo", { description: "A name outside the header-safe characters", inputSchema }, echo);
    } finally {
      console.warn = warn;
    }
    server.registerTool("deploy", { description: "Asks before it deploys", inputSchema: z.object({}) }, async (_args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.confirm;
      if (answer === undefined) {
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Deploy?", requestedSchema: z.object({ yes: z.boolean() }) }) }, requestState: "state-1" });
      }
      return { content: [{ type: "text" as const, text: JSON.stringify({ answer, state: ctx.mcpReq.requestState() }) }] };
    });
    return server;
  });
  modern = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => handler.fetch(request) });
});

afterAll(async () => {
  modern.stop(true);
  await handler.close();
});

interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** One modern POST, as the transport will send it: `_meta` in the body, mirrored in the headers. */
async function post(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const body = { jsonrpc: "2.0", id: nextId++, method, params };
  const version = (params._meta as Record<string, string>)[MetaKey.protocolVersion] as string;
  const name: Record<string, string> = typeof params.name === "string" ? { "Mcp-Name": encodeHeaderValue(params.name) } : {};
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "MCP-Protocol-Version": version, "Mcp-Method": method, ...name, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? JSON.parse(text) : {};
  return { status: response.status, result: json.result, error: json.error };
}

const modernUrl = () => `http://127.0.0.1:${modern.port}/mcp`;
const meta = (params: Record<string, unknown> = {}, protocolVersion?: string) => withRequestMeta(params, { capabilities: { elicitation: { form: {} } }, protocolVersion });

describe("against the SDK v2 server (modern)", () => {
  test("server/discover parses, and the version we choose from it is the modern one", async () => {
    const answer = await post(modernUrl(), "server/discover", meta());
    const discovered = v.parse(DiscoverResult, answer.result);
    expect(discovered._meta?.[MetaKey.serverInfo]?.name).toBe("sdk-v2-peer");
    expect(chooseVersion(discovered.supportedVersions)).toEqual({ era: "modern", version: "2026-07-28" });
  });

  /** The marked properties of a tool the server lists. */
  async function listedHeaders(name: string) {
    const listed = await post(modernUrl(), "tools/list", meta());
    const tool = (listed.result?.tools as { name: string; inputSchema: unknown }[]).find((t) => t.name === name);
    const check = checkParamHeaders(tool?.inputSchema);
    if (!check.ok) throw new Error(check.reason);
    return check.headers;
  }

  test("the x-mcp-header markings it lists are valid, and the headers we build are accepted for every awkward value", async () => {
    const headers = await listedHeaders("where");
    expect(headers.map((header) => header.headerName).sort()).toEqual(["Priority", "Region"]);
    for (const region of ["us-west1", "Hello, 世界", " padded ", "line1\r\nline2", "=?base64?literal?=", "", "\tindented", "a\tb", "us west 1"]) {
      const args = { region, priority: -7 };
      const answer = await post(modernUrl(), "tools/call", meta({ name: "where", arguments: args }), buildParamHeaders(headers, args));
      expect({ region, status: answer.status, error: answer.error }).toEqual({ region, status: 200, error: undefined });
      expect(JSON.parse((answer.result?.content as { text: string }[])[0]!.text)).toEqual(args);
    }
  });

  test("a tool name outside the header-safe characters goes base64 in Mcp-Name, and is accepted", async () => {
    const args = { region: "eu", priority: 1 };
    const headers = buildParamHeaders(await listedHeaders("météo"), args);
    expect((await post(modernUrl(), "tools/call", meta({ name: "météo", arguments: args }), headers)).status).toBe(200);
    // The server does compare it: a name that disagrees with the body is refused.
    const wrong = await post(modernUrl(), "tools/call", meta({ name: "météo", arguments: args }), { ...headers, "Mcp-Name": encodeHeaderValue("meteo") });
    expect(wrong.error?.code).toBe(-32020);
  });

  test("a header that disagrees with the body is HeaderMismatch: a modern error", async () => {
    const answer = await post(modernUrl(), "tools/call", meta({ name: "where", arguments: { region: "a", priority: 1 } }), { "Mcp-Param-Region": "b", "Mcp-Param-Priority": "1" });
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32020);
    expect(isModernError({ code: answer.error?.code, status: answer.status })).toBe(true);
  });

  test("an unsupported version is -32022 with the server's list, and we retry with what it speaks", async () => {
    const answer = await post(modernUrl(), "tools/list", meta({}, "1900-01-01"));
    expect(answer.status).toBe(400);
    expect(isModernError({ code: answer.error?.code, status: answer.status })).toBe(true);
    expect(versionAfterRejection({ code: answer.error?.code, data: answer.error?.data })).toEqual({ era: "modern", version: "2026-07-28" });
  });

  test("an unknown method is 404 with -32601: a modern server", async () => {
    const answer = await post(modernUrl(), "nothing/here", meta());
    expect(answer.status).toBe(404);
    expect(isModernError({ code: answer.error?.code, status: answer.status })).toBe(true);
  });

  test("a multi-round-trip tool completes: the retry carries our answer and its requestState", async () => {
    const asked: Record<string, InputRequest>[] = [];
    const result = await sendWithInputRounds(meta({ name: "deploy", arguments: {} }), {
      method: "tools/call",
      send: async (params) => {
        const answer = await post(modernUrl(), "tools/call", params);
        if (answer.error) throw new Error(answer.error.message);
        return answer.result;
      },
      answer: async (requests) => {
        asked.push(requests);
        return { confirm: { action: "accept", content: { yes: true } } };
      },
    });
    expect(asked[0]?.confirm?.method).toBe("elicitation/create");
    const text = ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({ answer: { action: "accept", content: { yes: true } }, state: "state-1" });
  });
});

describe("against the SDK v1 server (legacy)", () => {
  /** A v1 server over Streamable HTTP, stateful (sessions) or stateless, serving one request. */
  async function legacyAnswer(stateful: boolean): Promise<Answer> {
    const server = new LegacyMcpServer({ name: "sdk-v1-peer", version: "1.0.0" });
    server.registerTool("echo", { description: "e" }, async () => ({ content: [{ type: "text", text: "x" }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: stateful ? () => crypto.randomUUID() : undefined, enableJsonResponse: true });
    await server.connect(transport);
    const listening = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => transport.handleRequest(request) });
    try {
      return await post(`http://127.0.0.1:${listening.port}/mcp`, "server/discover", meta());
    } finally {
      listening.stop(true);
      await server.close();
    }
  }

  test.each([
    ["with sessions", true],
    ["stateless", false],
  ])("a modern request to a legacy server %s is refused without a modern error: fall back to initialize", async (_, stateful) => {
    const answer = await legacyAnswer(stateful);
    expect(answer.status).toBe(400);
    expect(isModernError({ code: answer.error?.code, status: answer.status })).toBe(false);
  });
});
