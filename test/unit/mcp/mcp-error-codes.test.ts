import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../src/mcp/client/mcp-client.ts";
import { isCancellation, McpError } from "../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";
import { McpToolAdapter } from "../../../src/mcp/tools/mcp-tool-adapter.ts";
import { initializeHandler, MemoryTransport, NEVER } from "../../helpers/memory-transport.ts";

const echoTool = { name: "echo", inputSchema: { type: "object" as const } };

describe("McpError codes", () => {
  test("a cancellation is an McpError told apart by its code, not by its class", async () => {
    const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => NEVER }));
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool("echo", {}, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = (await call) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.RequestCancelled);
    expect(error.isCancelled).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(isCancellation(McpError.timeout("x", 1))).toBe(false);
    expect(isCancellation(new Error("x was cancelled"))).toBe(false);
  });

  test("the adapter reports a cancelled call as cancelled by the user", async () => {
    const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => NEVER }));
    await client.connect();
    const adapter = new McpToolAdapter("mcp__s__echo", "s", echoTool, client);
    const controller = new AbortController();
    const running = adapter.execute({}, { signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ content: "Error: MCP tool 'mcp__s__echo' failed: cancelled by the user", isError: true });
  });

  test("a malformed result from the server is InvalidResult, not the client's InvalidParams", async () => {
    const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: "nope" }) }));
    await client.connect();
    const error = (await client.listTools().catch((e: unknown) => e)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.InvalidResult);
    expect(error.code).not.toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("invalid tools/list result");
  });
});
