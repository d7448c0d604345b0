import { describe, expect, test } from "bun:test";
import type { ToolProgress } from "../../../../src/agent/tool.ts";
import { McpClient, type CallOptions } from "../../../../src/mcp/client/mcp-client.ts";
import type { CallToolResult } from "../../../../src/mcp/protocol.ts";
import { McpToolAdapter } from "../../../../src/mcp/tools/mcp-tool-adapter.ts";
import { MemoryTransport } from "../../../helpers/memory-transport.ts";

/**
 * A client whose calls report progress as the next round's McpClient will (from the server's
 * notifications/progress): each call is held until the test releases it, and keeps its options so
 * the test can send updates, also after the call returned.
 */
class ProgressClient extends McpClient {
  readonly calls: { options: CallOptions; finish: (result: CallToolResult) => void }[] = [];

  constructor() {
    super(new MemoryTransport({}));
  }

  override callTool(_name: string, _args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return new Promise((finish) => this.calls.push({ options, finish }));
  }
}

function adapter(client: McpClient): McpToolAdapter {
  return new McpToolAdapter("mcp__idx__index", "idx", { name: "index", inputSchema: { type: "object" } }, client);
}

describe("McpToolAdapter forwards progress", () => {
  test("the call's progress reaches ToolContext.onProgress while it runs, and never after", async () => {
    const client = new ProgressClient();
    const heard: ToolProgress[] = [];
    const running = adapter(client).execute({}, { onProgress: (progress) => heard.push(progress) });
    const call = client.calls[0];
    expect(call?.options.onProgress).toBeFunction();
    call?.options.onProgress?.({ progress: 3, total: 10, message: "indexing" });
    call?.finish({ content: [{ type: "text", text: "done" }], isError: false });
    expect(await running).toEqual({ content: "done", isError: false });
    call?.options.onProgress?.({ progress: 4, total: 10 });
    expect(heard).toEqual([{ progress: 3, total: 10, message: "indexing" }]);
  });

  test("without onProgress in the context, the call asks for none", async () => {
    const client = new ProgressClient();
    const running = adapter(client).execute({});
    expect(client.calls[0]?.options.onProgress).toBeUndefined();
    client.calls[0]?.finish({ content: [], isError: false });
    await running;
  });

  test("the cancel signal is still passed beside it", async () => {
    const client = new ProgressClient();
    const controller = new AbortController();
    const running = adapter(client).execute({}, { signal: controller.signal, onProgress: () => {} });
    expect(client.calls[0]?.options.signal).toBe(controller.signal);
    client.calls[0]?.finish({ content: [], isError: false });
    await running;
  });
});
