import { describe, expect, test } from "bun:test";
import { LegacyEra } from "../../../../src/mcp/client/era/legacy-era.ts";
import { ModernEra } from "../../../../src/mcp/client/era/modern-era.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { JsonRpcConnection } from "../../../../src/mcp/rpc/json-rpc-connection.ts";
import { ModernErrorCode } from "../../../../src/mcp/stateless-protocol.ts";
import type { Transport } from "../../../../src/mcp/transport/transport.ts";

/** What an era sets below it: the transport's version header and the connection's cancellation. */
function layers(kind: "stdio" | "http" = "http") {
  const set = { version: "unset" as string | undefined };
  const transport = { kind, description: "test server", setProtocolVersion: (version: string | undefined) => (set.version = version) };
  const connection = { sendsCancellation: false, notified: [] as string[], notify: async (method: string) => void connection.notified.push(method) };
  return { set, connection, transport: transport as unknown as Transport, rpc: connection as unknown as JsonRpcConnection };
}

const capabilities = { roots: { listChanged: true } };
/** A request's timeout that never runs out, as `ready` sees it. */
const never = { signal: new AbortController().signal };

describe("ModernEra", () => {
  test("every request carries the version, our identity, capabilities and the log level", () => {
    const { transport, rpc } = layers();
    const era = new ModernEra(transport, rpc, capabilities);
    expect(era.params({ name: "echo" })).toEqual({
      name: "echo",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "cat-code", version: expect.any(String) },
        "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } },
        "io.modelcontextprotocol/logLevel": "warning",
      },
    });
    expect(era.params(undefined, 7)).toMatchObject({ _meta: { progressToken: 7 } });
    expect(() => era.params("text")).toThrow("request params must be an object");
  });

  test("sends the modern version; over HTTP closing the stream is the cancellation, over stdio notifications/cancelled is", () => {
    const http = layers("http");
    new ModernEra(http.transport, http.rpc, capabilities).enter();
    expect([http.set.version, http.connection.sendsCancellation]).toEqual(["2026-07-28", false]);
    const stdio = layers("stdio");
    new ModernEra(stdio.transport, stdio.rpc, capabilities).enter();
    expect([stdio.set.version, stdio.connection.sendsCancellation]).toEqual(["2026-07-28", true]);
  });

  test("a request whose stream broke is sent again twice at most; one refused with -32022 listing our version, once", () => {
    const { transport, rpc } = layers();
    const era = new ModernEra(transport, rpc, capabilities);
    const broke = new McpError(undefined, "stream lost", { kind: "stream-lost" });
    const attempt = era.attempt("tools/call");
    expect(attempt.ready(never)).toBeUndefined();
    expect([attempt.retry(broke), attempt.retry(broke), attempt.retry(broke)]).toEqual([true, true, false]);
    const refused = new McpError(ModernErrorCode.UnsupportedProtocolVersion, "not now", { data: { supported: ["2026-07-28"] } });
    expect([attempt.retry(refused), attempt.retry(refused)]).toEqual([true, false]);
    const elsewhere = new McpError(ModernErrorCode.UnsupportedProtocolVersion, "old", { data: { supported: ["2025-06-18"] } });
    expect(era.attempt("tools/call").retry(elsewhere)).toBe(false);
    expect(era.attempt("tools/call").retry(new McpError(undefined, "expired", { kind: "session-expired" }))).toBe(false);
  });
});

describe("LegacyEra", () => {
  /** An initialize answered in `version`. */
  const answer = (version: string) => async () => ({ protocolVersion: version, capabilities: {}, serverInfo: { name: "s", version: "1" } });

  test("the params as given, with only a progress token added beside the caller's _meta", () => {
    const { transport, rpc } = layers();
    const era = new LegacyEra(transport, rpc, capabilities, async () => {});
    const params = { name: "echo", _meta: { mine: 1 } };
    expect(era.params(params)).toBe(params);
    expect(era.params(params, "p1")).toEqual({ name: "echo", _meta: { mine: 1, progressToken: "p1" } });
    expect(params._meta).toEqual({ mine: 1 });
    expect(() => era.params([1, 2])).toThrow("request params must be an object");
  });

  test("no version header until the handshake agrees one; a request given up is followed by notifications/cancelled", async () => {
    const { set, connection, transport, rpc } = layers();
    const era = new LegacyEra(transport, rpc, capabilities, async () => {});
    era.enter();
    expect([set.version, connection.sendsCancellation]).toEqual([undefined, true]);
    const sent: unknown[] = [];
    await era.handshake(async (params) => (sent.push(params), answer("2025-06-18")()), () => {});
    expect(sent).toEqual([{ protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "cat-code", version: expect.any(String) } }]);
    expect([set.version, connection.notified]).toEqual(["2025-06-18", ["notifications/initialized"]]);
  });

  test("a version cat-code does not speak fails the handshake, and is never sent", async () => {
    const { set, connection, transport, rpc } = layers();
    const era = new LegacyEra(transport, rpc, capabilities, async () => {});
    era.enter();
    const heard: unknown[] = [];
    await expect(era.handshake(answer("1999-01-01"), (result) => heard.push(result))).rejects.toThrow("unsupported protocol version 1999-01-01");
    expect([set.version, connection.notified, heard]).toEqual([undefined, [], []]);
  });

  test("an expired session is renewed once for the requests that met it, and a second expiry is a clear failure", async () => {
    const { transport, rpc } = layers();
    let handshakes = 0;
    const era: LegacyEra = new LegacyEra(transport, rpc, capabilities, () => (handshakes++, era.handshake(answer("2025-11-25"), () => {})));
    await era.handshake(answer("2025-11-25"), () => {});
    const expired = new McpError(undefined, "404", { kind: "session-expired", url: "http://127.0.0.1:1/mcp" });
    const first = era.attempt("tools/call");
    const second = era.attempt("tools/list");
    expect([first.ready(never), second.ready(never)]).toEqual([undefined, undefined]);
    expect([first.retry(expired), second.retry(expired)]).toEqual([true, true]);
    await Promise.all([first.ready(never), second.ready(never)]);
    expect(handshakes).toBe(1);
    expect(() => first.retry(expired)).toThrow("expired the session, then refused the new one too (404 twice)");
    expect(era.attempt("initialize").retry(expired)).toBe(false);
    expect(era.attempt("tools/call").retry(new McpError(undefined, "stream lost", { kind: "stream-lost" }))).toBe(false);
  });

  test("a request's abort stops its wait for a renewal, not the renewal", async () => {
    const { transport, rpc } = layers();
    let finish!: () => void;
    const started = new Promise<void>((resolve) => (finish = resolve));
    const era: LegacyEra = new LegacyEra(transport, rpc, capabilities, () => started.then(() => era.handshake(answer("2025-11-25"), () => {})));
    await era.handshake(answer("2025-11-25"), () => {});
    const attempt = era.attempt("tools/call");
    attempt.ready(never);
    attempt.retry(new McpError(undefined, "404", { kind: "session-expired" }));
    const caller = new AbortController();
    const waiting = attempt.ready(caller)!;
    caller.abort(new Error("Ctrl-C"));
    await expect(waiting).rejects.toThrow("Ctrl-C");
    const other = era.attempt("tools/list").ready(never)!;
    finish();
    await other;
    expect(era.attempt("tools/list").ready(never)).toBeUndefined();
  });
});
