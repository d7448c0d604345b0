/**
 * Issue 31, a gateway's request under its client's capabilities: what a 2026-07-28 request declares
 * when it is made for someone else (never more than the connection declares), and that the `_meta`
 * of tools/call, prompts/get and resources/read (each of their rounds) carries it, while a
 * handshake-era request is left as it was.
 */
import { describe, expect, test } from "bun:test";
import { declaredCapabilities, forwardedCapabilities } from "../../../../src/mcp/client/client-capabilities.ts";
import type { EraStrategy } from "../../../../src/mcp/client/era/era-strategy.ts";
import { LegacyEra } from "../../../../src/mcp/client/era/legacy-era.ts";
import { ModernEra } from "../../../../src/mcp/client/era/modern-era.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { RequestRelay } from "../../../../src/mcp/client/request-relay.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import type { JsonRpcConnection } from "../../../../src/mcp/rpc/json-rpc-connection.ts";
import type { Transport } from "../../../../src/mcp/transport/transport.ts";
import { type Handler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { tempDir } from "../../../helpers/paths.ts";

const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const relay: RequestRelay = { sampling: async () => ({}), roots: async () => undefined };
const roots = () => new RootsProvider(tempDir("cat-code-capfwd-"));
/** What mcp serve's pool declares: roots, sampling (it relays) and both elicitation modes. */
const gateway = () => declaredCapabilities({ roots: roots(), relay, elicitation: async () => ({ action: "decline" }) });

describe("forwardedCapabilities", () => {
  test("declares what the caller declared, each within what the connection declares", () => {
    const own = gateway();
    expect(forwardedCapabilities(own, { sampling: { tools: {} }, elicitation: { form: {}, url: {} } })).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
    });
    // A connection without a relay cannot sample, whatever its caller can.
    const plain = declaredCapabilities({ roots: roots() });
    expect(forwardedCapabilities(plain, { sampling: {}, elicitation: { form: {} }, roots: {} })).toEqual({ roots: { listChanged: true } });
  });

  test("what the caller did not declare is not declared; roots stay (cat-code answers roots/list with its own)", () => {
    expect(forwardedCapabilities(gateway(), {})).toEqual({ roots: { listChanged: true } });
    expect(forwardedCapabilities(declaredCapabilities({}), { roots: { listChanged: true } })).toEqual({});
  });

  test("elicitation: only the modes both declare, an empty object meaning form only on either side", () => {
    const own = gateway();
    expect(forwardedCapabilities(own, { elicitation: {} }).elicitation).toEqual({ form: {} });
    expect(forwardedCapabilities(own, { elicitation: { url: {} } }).elicitation).toEqual({ url: {} });
    expect(forwardedCapabilities({ elicitation: {} }, { elicitation: { url: {} } }).elicitation).toBeUndefined();
    expect(forwardedCapabilities({ elicitation: {} }, { elicitation: { form: {}, url: {} } }).elicitation).toEqual({ form: {} });
  });

  test("what the connection never declares (experimental, extensions) is not passed on", () => {
    expect(forwardedCapabilities(gateway(), { experimental: { x: {} }, extensions: { "io.example/y": {} } })).toEqual({ roots: { listChanged: true } });
  });
});

describe("the params of one request", () => {
  const layers = () => {
    const transport = { kind: "http", description: "test server" } as unknown as Transport;
    return { transport, rpc: {} as unknown as JsonRpcConnection };
  };

  test("a modern request carries the forwarded capabilities, and the connection's own without a caller", () => {
    const { transport, rpc } = layers();
    const era = new ModernEra(transport, rpc, gateway());
    expect((era.params({}, undefined, { sampling: {} }) as any)._meta[CAPABILITIES]).toEqual({ roots: { listChanged: true }, sampling: {} });
    expect((era.params({}) as any)._meta[CAPABILITIES]).toEqual(gateway());
  });

  test("a handshake-era request is unchanged: the capabilities were declared once, at initialize", () => {
    const { transport, rpc } = layers();
    const params = { name: "echo" };
    const era: EraStrategy = new LegacyEra(transport, rpc, gateway(), async () => {});
    expect(era.params(params, undefined, {})).toBe(params);
  });
});

class ModernMemoryTransport extends MemoryTransport {
  readonly kind = "stdio" as const;
}

describe("McpClient against a 2026-07-28 server", () => {
  const discover: Handler = () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: {}, prompts: {}, resources: {} }, serverInfo: { name: "memory", version: "1" } });
  /** Asks for the client's roots once, then completes with `result`. */
  const askingRootsOnce = (result: object): Handler => (params) =>
    params.inputResponses ? { resultType: "complete", ...result } : { resultType: "input_required", inputRequests: { r: { method: "roots/list", params: {} } } };

  test("tools/call, prompts/get and resources/read, every round, declare what the caller gave", async () => {
    const transport = new ModernMemoryTransport({
      "server/discover": discover,
      "tools/call": askingRootsOnce({ content: [] }),
      "prompts/get": askingRootsOnce({ messages: [] }),
      "resources/read": askingRootsOnce({ contents: [] }),
    });
    const client = new McpClient(transport, { name: "memo", roots: roots(), relay, elicitation: async () => ({ action: "decline" }) });
    await client.connect();
    try {
      const caller = { elicitation: {} };
      await client.callTool("t", {}, { clientCapabilities: caller });
      await client.getPrompt("p", {}, { clientCapabilities: caller });
      await client.readResource("file:///x", { clientCapabilities: caller });
      await client.callTool("t", {});
      const declared = transport.sent.filter((message) => message.method !== "server/discover").map((message) => [message.method, (message.params as any)._meta[CAPABILITIES]]);
      const forwarded = { roots: { listChanged: true }, elicitation: { form: {} } };
      expect(declared).toEqual([
        ["tools/call", forwarded],
        ["tools/call", forwarded],
        ["prompts/get", forwarded],
        ["prompts/get", forwarded],
        ["resources/read", forwarded],
        ["resources/read", forwarded],
        ["tools/call", gateway()],
        ["tools/call", gateway()],
      ]);
    } finally {
      await client.close();
    }
  });
});
