import { describe, expect, test } from "bun:test";
import { chooseVersion, isModernError, OUR_VERSIONS, versionAfterRejection } from "../../../../src/mcp/client/version-negotiation.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";

function thrown(body: () => unknown): McpError {
  try {
    body();
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("expected an McpError");
}

describe("isModernError", () => {
  test.each([
    ["HeaderMismatch", -32020],
    ["MissingRequiredClientCapability", -32021],
    ["UnsupportedProtocolVersion", -32022],
  ])("%s means a modern server, over stdio and over HTTP 400", (_, code) => {
    expect(isModernError({ code })).toBe(true);
    expect(isModernError({ code, status: 400 })).toBe(true);
  });

  test("-32601 means modern only as an HTTP 404 with that JSON-RPC body", () => {
    expect(isModernError({ code: -32601, status: 404 })).toBe(true);
    // A stateless legacy HTTP server answers an unknown method with 200 and -32601.
    expect(isModernError({ code: -32601, status: 200 })).toBe(false);
    // Over stdio, a modern server implements server/discover: -32601 to it is a legacy server.
    expect(isModernError({ code: -32601 })).toBe(false);
  });

  test("a 400, 404 or 405 without a modern body is a legacy server", () => {
    for (const status of [400, 404, 405]) expect(isModernError({ code: undefined, status })).toBe(false);
    // The SDK v1's "Bad Request: Server not initialized".
    expect(isModernError({ code: -32000, status: 400 })).toBe(false);
  });

  test("a timeout, a closed connection or any other error is legacy", () => {
    expect(isModernError(McpError.timeout("server/discover", 500))).toBe(false);
    expect(isModernError(McpError.closed("the server exited"))).toBe(false);
    expect(isModernError({ code: ErrorCode.InvalidRequest })).toBe(false);
    expect(isModernError({ code: -32603, status: 500 })).toBe(false);
  });

  test("an McpError from the HTTP transport carries what it needs", () => {
    expect(isModernError(new McpError(-32601, "Method not found", { status: 404 }))).toBe(true);
  });
});

describe("chooseVersion", () => {
  test("a dual-era server gets the modern version", () => {
    expect(chooseVersion(["2025-11-25", "2026-07-28"])).toEqual({ era: "modern", version: "2026-07-28" });
  });

  test("a server of handshake versions only gets the newest of them we share", () => {
    expect(chooseVersion(["2024-11-05", "2025-06-18", "1999-01-01"])).toEqual({ era: "legacy", version: "2025-06-18" });
  });

  test("nothing in common names both sides", () => {
    const error = thrown(() => chooseVersion(["2030-01-01", "2031-01-01"]));
    expect(error.code).toBe(-32022);
    expect(error.message).toBe(`no protocol version in common: the server speaks "2030-01-01", "2031-01-01"; cat-code speaks ${OUR_VERSIONS.join(", ")}`);
  });

  test("a hostile list is quoted and cut short in the message", () => {
    const hostile = ["\u001b[31mred\u001b[0m", "x".repeat(10_000), ...Array.from({ length: 50 }, (_, i) => `v${i}`)];
    const error = thrown(() => chooseVersion(hostile));
    expect(error.message).not.toContain("\u001b");
    expect(error.message).toContain("and 44 more");
    expect(error.message.length).toBeLessThan(600);
  });

  test("an empty list says so", () => {
    expect(thrown(() => chooseVersion([])).message).toContain("the server speaks none it would name");
  });

  test("our own list is the modern version, then the handshake ones newest first", () => {
    expect(OUR_VERSIONS).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  });
});

describe("versionAfterRejection", () => {
  test("picks from data.supported of an UnsupportedProtocolVersion error", () => {
    const error = new McpError(-32022, "Unsupported protocol version", { status: 400, data: { supported: ["2026-07-28", "2025-11-25"], requested: "1900-01-01" } });
    expect(versionAfterRejection(error)).toEqual({ era: "modern", version: "2026-07-28" });
    expect(versionAfterRejection({ code: -32022, data: { supported: ["2025-11-25"] } })).toEqual({ era: "legacy", version: "2025-11-25" });
  });

  test("a rejection without a readable list is the server's fault, said in words", () => {
    for (const data of [undefined, {}, { supported: "2026-07-28" }, { supported: [1, 2] }]) {
      const error = thrown(() => versionAfterRejection({ code: -32022, data }));
      expect(error.code).toBe(ErrorCode.InvalidResult);
      expect(error.message).toContain("without a valid list of the versions it supports");
    }
  });

  test("an oversized list is refused", () => {
    const data = { supported: Array.from({ length: 10_000 }, (_, i) => `v${i}`) };
    expect(thrown(() => versionAfterRejection({ code: -32022, data })).message).toContain("more than 64 supported versions");
  });
});
