import { describe, expect, test } from "bun:test";
import { CLIENT_INFO, withRequestMeta } from "../../../../src/mcp/client/request-meta.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { VERSION } from "../../../../src/version.ts";

describe("withRequestMeta", () => {
  test("a request carries the modern version, our identity and the capabilities given", () => {
    const params = withRequestMeta({ name: "echo", arguments: { text: "hi" } }, { capabilities: { elicitation: { form: {} } } });
    expect(params).toEqual({
      name: "echo",
      arguments: { text: "hi" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "cat-code", version: VERSION },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      },
    });
    expect(CLIENT_INFO).toEqual({ name: "cat-code", version: VERSION });
  });

  test("no params still gets a _meta; capabilities may be empty", () => {
    expect(withRequestMeta(undefined, { capabilities: {} })._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": {},
    });
  });

  test("the log level and progress token are there only when asked", () => {
    const meta = withRequestMeta({}, { capabilities: {}, logLevel: "warning", progressToken: 7 })._meta as Record<string, unknown>;
    expect(meta["io.modelcontextprotocol/logLevel"]).toBe("warning");
    expect(meta.progressToken).toBe(7);
    const plain = withRequestMeta({}, { capabilities: {} })._meta as Record<string, unknown>;
    expect("io.modelcontextprotocol/logLevel" in plain).toBe(false);
    expect("progressToken" in plain).toBe(false);
  });

  test("a _meta the params have keeps its keys; the protocol keys are ours", () => {
    const params = {
      uri: "file:///a",
      _meta: { "com.example/trace": "abc", "io.modelcontextprotocol/protocolVersion": "1900-01-01", progressToken: "theirs" },
    };
    const meta = withRequestMeta(params, { capabilities: {}, protocolVersion: "2026-07-28" })._meta as Record<string, unknown>;
    expect(meta["com.example/trace"]).toBe("abc");
    expect(meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    expect(meta.progressToken).toBe("theirs");
  });

  test("neither the params nor their _meta are changed", () => {
    const original = { name: "t", _meta: { "com.example/trace": "abc" } };
    const frozen = structuredClone(original);
    const built = withRequestMeta(original, { capabilities: { roots: {} }, logLevel: "error", progressToken: "p" });
    expect(original).toEqual(frozen);
    expect(built._meta).not.toBe(original._meta);
  });

  test("a _meta that is not an object is InvalidParams, saying what it is", () => {
    for (const [meta, what] of [["x", "a string"], [[1], "an array"], [null, "null"], [3, "a number"]] as const) {
      let error: unknown;
      try {
        withRequestMeta({ _meta: meta }, { capabilities: {} });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toBe(`params._meta must be an object, not ${what}`);
    }
  });
});
