import { expect, test } from "bun:test";
import { detectEra, fromDiscoverResult, type EraProbe } from "../../../../src/mcp/client/era-detection.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";

const MODERN = "2026-07-28";

function failingProbe(error: unknown, kind: EraProbe["kind"] = "stdio", ended = false): EraProbe {
  return { kind, discover: () => Promise.reject(error), connectionEnded: () => ended };
}

test("a discover result is modern only when it lists 2026-07-28", () => {
  expect(fromDiscoverResult({})).toEqual({ era: "legacy" });
  expect(fromDiscoverResult({ supportedVersions: "2026-07-28" })).toEqual({ era: "legacy" });
  expect(fromDiscoverResult({ supportedVersions: ["2025-11-25"] })).toEqual({ era: "legacy" });
  expect(fromDiscoverResult({ supportedVersions: ["2025-11-25", MODERN], capabilities: { tools: {} } })).toMatchObject({
    era: "modern",
    version: MODERN,
    capabilities: { tools: {} },
  });
});

test("a malformed serverInfo is left out, not trusted", () => {
  expect(fromDiscoverResult({ supportedVersions: [MODERN], serverInfo: { name: 42 } })).toMatchObject({ era: "modern", serverInfo: undefined });
});

test("over stdio, an error response that is not one of the revision's own means legacy", async () => {
  for (const code of [ErrorCode.MethodNotFound, ErrorCode.InvalidParams, -32000, ErrorCode.InternalError]) {
    expect(await detectEra(failingProbe(new McpError(code, "no")))).toEqual({ era: "legacy" });
  }
});

test("-32601 is modern only with HTTP 404", async () => {
  expect(await detectEra(failingProbe(new McpError(ErrorCode.MethodNotFound, "no"), "http"))).toEqual({ era: "legacy" });
  expect(await detectEra(failingProbe(new McpError(ErrorCode.MethodNotFound, "no", { status: 404 }), "http"))).toMatchObject({ era: "modern" });
});

test("a connection that ended, an unreachable server and the caller's cancellation are not fallbacks", async () => {
  const exited = McpError.closed("the server exited with code 3");
  // A stdio server the probe ended: the caller may start it again (kind probe-ended), straight to initialize.
  await expect(detectEra(failingProbe(exited, "stdio", true))).rejects.toMatchObject({ message: exited.message, code: exited.code, kind: "probe-ended" });
  const unreachable = new McpError(ErrorCode.ConnectionClosed, "cannot reach http://x", { kind: "unreachable" });
  await expect(detectEra(failingProbe(unreachable, "http"))).rejects.toBe(unreachable);
  const cancelled = McpError.cancelled("server/discover");
  await expect(detectEra(failingProbe(cancelled))).rejects.toBe(cancelled);
});

test("a stdio server that exits on the probe fails the connect with its exit, named as the probe's, of kind probe-ended, with no handshake tried", async () => {
  const client = new McpClient(
    new StdioTransport({ command: "bash", args: ["-c", "read -r line; echo 'no such thing' >&2; exit 3"], env: { PATH: process.env.PATH ?? "" } }),
    { timeoutMs: 10_000 },
  );
  const error = await client.connect().catch((e) => e);
  expect(error).toBeInstanceOf(McpError);
  expect(error.message).toStartWith("server/discover (the era probe) failed: the server exited with code 3; its last stderr lines:\n");
  expect(error.message).toEndWith("no such thing");
  expect(error.kind).toBe("probe-ended");
  expect(client.state.status).toBe("failed");
});
