import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { initializeHandler, MemoryTransport, NEVER } from "../../../helpers/memory-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const echoTool = { name: "echo", description: "Echo", inputSchema: { type: "object" } };

describe("McpClient handshake", () => {
  test("sends the latest protocol version, then notifications/initialized, and becomes CONNECTED", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler("2025-06-18") });
    const client = new McpClient(transport);
    await client.connect();
    expect(transport.sent[0]).toMatchObject({ method: "initialize", params: { protocolVersion: "2025-11-25", clientInfo: { name: "cat-code" } } });
    expect(transport.sent[1]).toEqual({ method: "notifications/initialized", params: undefined });
    expect(client.state).toEqual({ status: "connected" });
    expect(client.protocolVersion).toBe("2025-06-18");
    expect(transport.protocolVersion).toBe("2025-06-18");
    expect(client.serverInfo).toEqual({ name: "memory", version: "1.2.3" });
  });

  test("asks for the notification stream after the handshake, though the server declares no listChanged", async () => {
    const transport = new MemoryTransport({ initialize: () => ({ protocolVersion: "2025-11-25", capabilities: {} }) });
    const client = new McpClient(transport);
    await client.connect();
    expect(transport.notificationStreamsOpened).toBe(1);
  });

  for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
    test(`accepts protocol version ${version}`, async () => {
      const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(version) }));
      await client.connect();
      expect(client.state.status).toBe("connected");
    });
  }

  test("an unsupported protocol version fails the server with that version in the reason", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler("1999-01-01") });
    const client = new McpClient(transport);
    await expect(client.connect()).rejects.toThrow("unsupported protocol version 1999-01-01");
    expect(client.state).toMatchObject({ status: "failed", reason: expect.stringContaining("1999-01-01") });
    expect(transport.closed).toBe(1);
  });

  test("an initialize refused with a JSON-RPC error leaves FAILED with the server's message", async () => {
    const client = new McpClient(
      new MemoryTransport({
        initialize: () => {
          throw new McpError(-32602, "bad client");
        },
      }),
    );
    const error = await client.connect().catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32602);
    expect(client.state).toEqual({ status: "failed", reason: "bad client" });
  });

  test("a malformed initialize result is named as the server's fault", async () => {
    const client = new McpClient(new MemoryTransport({ initialize: () => ({ capabilities: {} }) }));
    await expect(client.connect()).rejects.toThrow('invalid initialize result at "protocolVersion"');
  });

  test("a handshake that never answers times out and fails the server", async () => {
    const clock = new FakeClock();
    const transport = new MemoryTransport({ initialize: () => NEVER });
    const client = new McpClient(transport, { timeoutMs: 50, clock });
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => transport.sent.some((m) => m.method === "initialize"), "the initialize request");
    // 50 ms plus its group's window (a tenth of the timeout): the latest it may end.
    clock.advance(55);
    expect(((await connecting) as Error).message).toBe("initialize timed out after 50 ms");
    expect(client.state).toEqual({ status: "failed", reason: "initialize timed out after 50 ms" });
  });

  test("a cancelled connect is not a failure", async () => {
    const controller = new AbortController();
    const client = new McpClient(new MemoryTransport({ initialize: () => NEVER }));
    const connecting = client.connect({ signal: controller.signal });
    controller.abort();
    await expect(connecting).rejects.toMatchObject({ code: ErrorCode.RequestCancelled });
    expect(client.state).toEqual({ status: "closed" });
  });
});

describe("McpClient tools", () => {
  test("tools/list follows nextCursor through every page", async () => {
    const pages: Record<string, { tools: object[]; nextCursor?: string }> = {
      "": { tools: [{ ...echoTool, name: "a" }], nextCursor: "p2" },
      p2: { tools: [{ ...echoTool, name: "b" }], nextCursor: "p3" },
      p3: { tools: [{ ...echoTool, name: "c" }] },
    };
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": (params) => pages[params.cursor ?? ""] });
    const client = new McpClient(transport);
    await client.connect();
    expect((await client.listTools()).map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(transport.sent.filter((m) => m.method === "tools/list").map((m) => m.params)).toEqual([{}, { cursor: "p2" }, { cursor: "p3" }]);
  });

  test("a cursor that comes back again is an error, not an endless loop", async () => {
    const client = new McpClient(
      new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [echoTool], nextCursor: "same" }) }),
    );
    await client.connect();
    await expect(client.listTools()).rejects.toThrow('tools/list repeated the cursor "same"');
  });

  test("tools are listed once per connection, and again after tools/list_changed", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [echoTool] }) });
    const client = new McpClient(transport);
    await client.connect();
    await client.listTools();
    await client.listTools();
    expect(transport.sent.filter((m) => m.method === "tools/list").length).toBe(1);
    transport.serverNotification("notifications/tools/list_changed");
    await client.listTools();
    expect(transport.sent.filter((m) => m.method === "tools/list").length).toBe(2);
  });

  test("a tool without inputSchema gets an empty object schema", async () => {
    const client = new McpClient(new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [{ name: "bare" }] }) }));
    await client.connect();
    expect((await client.listTools())[0]?.inputSchema).toEqual({ type: "object" });
  });

  test("tools/call passes name and arguments and returns the parsed result", async () => {
    const transport = new MemoryTransport({
      initialize: initializeHandler(),
      "tools/call": (params) => ({ content: [{ type: "text", text: params.arguments.text }] }),
    });
    const client = new McpClient(transport);
    await client.connect();
    expect(await client.callTool("echo", { text: "hi" })).toEqual({ content: [{ type: "text", text: "hi" }], isError: false });
  });

  test("a call that times out rejects with a timeout and the server is told with notifications/cancelled", async () => {
    const clock = new FakeClock();
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => NEVER });
    const client = new McpClient(transport, { timeoutMs: 5000, clock });
    await client.connect();
    const calling = client.callTool("echo", {}, { timeoutMs: 30 }).catch((e) => e);
    // Not before its 30 ms (the server is told at the very moment it is given up)...
    clock.advance(29.999);
    expect(transport.sent.some((m) => m.method === "notifications/cancelled")).toBe(false);
    // ...and at its 30 ms: the request has a timer of its own.
    clock.advance(0.001);
    expect(transport.sent.some((m) => m.method === "notifications/cancelled")).toBe(true);
    const error = await calling;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(error.message).toBe("tools/call timed out after 30 ms");
    const call = transport.sent.find((m) => m.method === "tools/call");
    expect(transport.sent.at(-1)).toEqual({
      method: "notifications/cancelled",
      params: { requestId: call?.id, reason: "tools/call timed out after 30 ms" },
    });
    expect(client.state.status).toBe("connected");
  });

  test("a call cancelled by the caller rejects with a cancellation (by code) and tells the server", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => NEVER });
    const client = new McpClient(transport);
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool("echo", {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestCancelled });
    expect(transport.sent.at(-1)?.method).toBe("notifications/cancelled");
  });

  test("ping from the server is answered with {}; other requests with -32601", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler() });
    const client = new McpClient(transport);
    await client.connect();
    expect(await transport.serverRequest("ping")).toEqual({ result: {} });
    for (const method of ["roots/list", "sampling/createMessage", "elicitation/create"]) {
      expect(await transport.serverRequest(method)).toEqual({ error: { code: -32601, message: `Method not found: ${method}` } });
    }
  });

  test("a connection that ends by itself leaves FAILED with the reason", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler() });
    const client = new McpClient(transport);
    await client.connect();
    transport.crash("the server exited with code 1");
    expect(client.state).toEqual({ status: "failed", reason: "the server exited with code 1" });
  });
});
