import { describe, expect, test } from "bun:test";
import { failedAt, McpError } from "../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";

describe("failedAt: a connect failure names its step", () => {
  test("a server's error or exit gets the step in front; code, fields and flags are kept, the original is the cause", () => {
    const exited = new McpError(ErrorCode.ConnectionClosed, "the server exited with code 3", { data: { x: 1 }, status: 500, url: "http://h/mcp", kind: "probe-ended" });
    const named = failedAt("initialize", exited) as McpError;
    expect(named.message).toBe("initialize failed: the server exited with code 3");
    expect(named).toMatchObject({ code: ErrorCode.ConnectionClosed, data: { x: 1 }, status: 500, url: "http://h/mcp", kind: "probe-ended" });
    expect(named.cause).toBe(exited);
    expect((failedAt("tools/list", McpError.fromJsonRpc({ code: -32603, message: "boom" })) as Error).message).toBe("tools/list failed: boom");
  });

  test("kept as they are: a message that names the step already, and what no step caused", () => {
    const kept = [
      McpError.timeout("initialize", 30_000),
      McpError.cancelled("initialize"),
      new McpError(ErrorCode.ConnectionClosed, "cannot reach http://127.0.0.1:9/mcp", { kind: "unreachable" }),
      new McpError(undefined, "MCP server 'x' needs you to sign in", { kind: "needs-auth" }),
      new McpError(undefined, "the server at http://h/mcp answered 401 Unauthorized", { status: 401 }),
      new McpError(undefined, "the server at http://h/mcp answered 403 Forbidden", { status: 403 }),
      new McpError(undefined, "the server at http://h/mcp redirected POST (307) to another origin", { status: 307 }),
    ];
    for (const error of kept) expect(failedAt("initialize", error)).toBe(error);
    const plain = new Error("a bug of ours");
    expect(failedAt("initialize", plain)).toBe(plain);
  });
});
