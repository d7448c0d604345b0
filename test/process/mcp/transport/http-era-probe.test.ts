/**
 * Era detection over real HTTP (Bun.serve on 127.0.0.1): each way a server answers the modern
 * probe in test/conformance/SCENARIOS.md, played by the scripted server, and what cat-code does.
 */
import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { EraRecord } from "../../../../src/mcp/client/era-memory.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { freePort } from "../../../helpers/http-server-process.ts";
import { result, ScriptedServer, type RecordedRequest } from "../../../../fixtures/http/scripted-server.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const MODERN = "2026-07-28";
const SERVER_INFO = { name: "scripted-modern", version: "9" };

const { serve, keep } = scriptedServers();

function client(url: string, options: ConstructorParameters<typeof McpClient>[1] = {}): McpClient {
  const made = new McpClient(new HttpTransport({ url, headers: {} }), { timeoutMs: 5_000, ...options });
  keep(made);
  return made;
}

const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } });
const discoverResult = (extra: object = {}) => ({ supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO }, ...extra });
const isProbe = (request: RecordedRequest) => request.body?.method === "server/discover";
const methods = (server: ScriptedServer) => server.requests.map((r) => (r.method === "POST" ? r.body?.method : r.method));

describe("a legacy answer falls back to initialize", () => {
  const legacyAnswers: [string, (request: RecordedRequest) => Response][] = [
    ["200 with an empty result (a server that answers any method so)", (r) => Response.json(result(r.body.id, {}), { headers: { "Mcp-Session-Id": "s" } })],
    ["400 -32000 with a null id (SDK v1: unsupported protocol version)", () => Response.json(rpcError(null, -32000, "Bad Request: Unsupported protocol version: 2026-07-28"), { status: 400 })],
    ["400 -32000 (SDK v1: invalid or missing session ID)", () => Response.json(rpcError(null, -32000, "Bad Request: No valid session ID provided"), { status: 400 })],
    ["200 with -32601 (a legacy server's unknown method)", (r) => Response.json(rpcError(r.body.id, -32601, "Method not found"))],
    ["404 with an HTML page", () => new Response("<html><body>Cannot POST /mcp</body></html>", { status: 404, headers: { "Content-Type": "text/html" } })],
    ["405 without a body", () => new Response(null, { status: 405 })],
    ["400 without a JSON-RPC body", () => new Response("bad request", { status: 400 })],
    ["a version list without ours", (r) => Response.json(result(r.body.id, { supportedVersions: ["2025-11-25"], capabilities: {} }))],
    ["-32022 listing only handshake versions", (r) => Response.json(rpcError(r.body.id, -32022, "unsupported", { supported: ["2025-06-18"], requested: MODERN }), { status: 400 })],
  ];
  for (const [name, answer] of legacyAnswers) {
    test(name, async () => {
      const server = serve((request) => (isProbe(request) ? answer(request) : undefined));
      const made = client(server.url);
      await made.connect();
      expect(made.era).toBe("legacy");
      expect(made.protocolVersion).toBe("2025-11-25");
      expect(methods(server).slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
      // Back to the handshake revision's headers: none on initialize, the agreed one after it.
      expect(server.posts("initialize")[0]!.headers.get("mcp-protocol-version")).toBeNull();
      expect(server.posts("notifications/initialized")[0]!.headers.get("mcp-protocol-version")).toBe("2025-11-25");
      expect(server.posts("initialize")[0]!.headers.get("mcp-method")).toBeNull();
    });
  }
});

describe("a modern answer opens the modern era, with no handshake", () => {
  test("a discover result listing 2026-07-28, serverInfo in _meta", async () => {
    const server = serve((request) => (isProbe(request) ? Response.json(result(request.body.id, discoverResult({ instructions: "be nice" }))) : undefined));
    const made = client(server.url);
    await made.connect();
    expect({ era: made.era, version: made.protocolVersion, info: made.serverInfo, instructions: made.instructions }).toEqual({
      era: "modern",
      version: MODERN,
      info: SERVER_INFO,
      instructions: "be nice",
    });
    expect(server.posts("initialize")).toHaveLength(0);
    const probe = server.posts("server/discover")[0]!;
    expect(probe.headers.get("mcp-protocol-version")).toBe(MODERN);
    expect(probe.headers.get("mcp-method")).toBe("server/discover");
    expect(probe.body.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "cat-code" },
    });
  });

  test("serverInfo at the top level of the result is found too", async () => {
    const server = serve((r) => (isProbe(r) ? Response.json(result(r.body.id, { supportedVersions: [MODERN], capabilities: {}, serverInfo: SERVER_INFO })) : undefined));
    const made = client(server.url);
    await made.connect();
    expect(made.era).toBe("modern");
    expect(made.serverInfo).toEqual(SERVER_INFO);
  });

  test("404 with a JSON-RPC -32601 body: a modern server without discover", async () => {
    const server = serve((r) => (isProbe(r) ? Response.json(rpcError(r.body.id, -32601, "Method not found"), { status: 404 }) : undefined));
    const made = client(server.url);
    await made.connect();
    expect(made.era).toBe("modern");
    expect(server.posts("initialize")).toHaveLength(0);
  });

  test("-32022 on the first request while our version is listed: the probe is sent once more, with a new id", async () => {
    let refused = false;
    const server = serve((r) => {
      if (!isProbe(r)) return undefined;
      if (!refused) {
        refused = true;
        return Response.json(rpcError(r.body.id, -32022, "unsupported", { supported: [MODERN], requested: MODERN }), { status: 400 });
      }
      return Response.json(result(r.body.id, discoverResult()));
    });
    const made = client(server.url);
    await made.connect();
    expect(made.era).toBe("modern");
    const probes = server.posts("server/discover");
    expect(probes).toHaveLength(2);
    expect(probes[1]!.body.id).not.toBe(probes[0]!.body.id);
    for (const probe of probes) {
      expect(probe.headers.get("mcp-protocol-version")).toBe(MODERN);
      expect(probe.body.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe(MODERN);
    }
  });

  test("-32022 twice though our version is listed: a clear error, no third try", async () => {
    const server = serve((r) => (isProbe(r) ? Response.json(rpcError(r.body.id, -32022, "nope", { supported: [MODERN] }), { status: 400 }) : undefined));
    const error = await client(server.url).connect().catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.message).toContain("refused protocol version 2026-07-28 twice");
    expect(server.posts("server/discover")).toHaveLength(2);
    expect(server.posts("initialize")).toHaveLength(0);
  });

  test("-32022 naming no version we speak: a clear error listing both sides", async () => {
    const server = serve((r) => (isProbe(r) ? Response.json(rpcError(r.body.id, -32022, "nope", { supported: ["2099-01-01"] }), { status: 400 }) : undefined));
    const error = await client(server.url).connect().catch((e) => e);
    expect(error.message).toContain('no protocol version in common: the server speaks "2099-01-01"');
    expect(server.posts("initialize")).toHaveLength(0);
  });

  for (const [code, name] of [
    [-32020, "HeaderMismatch"],
    [-32021, "MissingRequiredClientCapability"],
  ] as const) {
    test(`400 ${code} (${name}): a modern server refusing us is a clear error, not a fallback`, async () => {
      const server = serve((r) => (isProbe(r) ? Response.json(rpcError(r.body.id, code, `refused: ${name}`), { status: 400 }) : undefined));
      const made = client(server.url);
      const error = await made.connect().catch((e) => e);
      expect(error.message).toBe(`server/discover (the era probe) failed: the server speaks MCP 2026-07-28 but refused cat-code's request: refused: ${name}`);
      expect(error).toMatchObject({ code, status: 400 });
      expect(made.state.status).toBe("failed");
      expect(server.posts("initialize")).toHaveLength(0);
    });
  }
});

test("an unreachable server fails as before, without a fallback", async () => {
  const made = client(`http://127.0.0.1:${freePort()}/mcp`);
  const error = await made.connect().catch((e) => e);
  expect(error.message).toStartWith("cannot reach http://127.0.0.1:");
  expect(made.state.status).toBe("failed");
});

describe("era memory", () => {
  function memory(initial?: Omit<EraRecord, "at">) {
    const state = { record: initial, forgotten: 0, remembered: [] as Omit<EraRecord, "at">[] };
    return {
      state,
      handle: {
        recall: () => (state.record ? { ...state.record, at: 1, stale: false } : undefined),
        remember: (record: Omit<EraRecord, "at">) => {
          state.remembered.push(record);
          state.record = record;
        },
        forget: () => {
          state.forgotten++;
          state.record = undefined;
        },
      },
    };
  }

  test("a server remembered as legacy goes straight to initialize", async () => {
    const server = serve(() => undefined);
    const { state, handle } = memory({ era: "legacy", version: "2025-11-25" });
    const made = client(server.url, { eraMemory: handle });
    await made.connect();
    expect(made.era).toBe("legacy");
    expect(server.posts("server/discover")).toHaveLength(0);
    expect(state.forgotten).toBe(0);
  });

  test("a remembered legacy server that now refuses initialize is forgotten and probed: modern", async () => {
    const server = serve((r) => {
      if (r.body?.method === "initialize") return Response.json(rpcError(r.body.id, -32020, "no MCP-Protocol-Version header"), { status: 400 });
      if (isProbe(r)) return Response.json(result(r.body.id, discoverResult()));
    });
    const { state, handle } = memory({ era: "legacy", version: "2025-11-25" });
    const made = client(server.url, { eraMemory: handle });
    await made.connect();
    expect(made.era).toBe("modern");
    expect(methods(server)).toEqual(["initialize", "server/discover"]);
    expect(state.forgotten).toBe(1);
    expect(state.remembered).toEqual([{ era: "modern", version: MODERN }]);
  });

  test("what a probe found is remembered", async () => {
    const server = serve(() => undefined);
    const { state, handle } = memory();
    await client(server.url, { eraMemory: handle }).connect();
    expect(state.remembered).toEqual([{ era: "legacy", version: "2025-11-25" }]);
  });
});
