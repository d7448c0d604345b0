import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ElicitationHandler } from "../../../../src/mcp/client/elicitation.ts";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { type Handler, MemoryTransport } from "../../../helpers/memory-transport.ts";

/** A stdio-like memory transport, so the client probes with server/discover and finds a modern server. */
class ModernMemoryTransport extends MemoryTransport {
  readonly kind = "stdio" as const;
}

const discover: Handler = () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, serverInfo: { name: "memory", version: "1" } });
const FORM = { message: "Confirm?", requestedSchema: { type: "object", properties: { confirmed: { type: "boolean" } } } };

async function modernClient(toolsCall: Handler, options: McpClientOptions = {}) {
  const transport = new ModernMemoryTransport({ "server/discover": discover, "tools/call": toolsCall });
  const client = new McpClient(transport, { name: "memo", ...options });
  await client.connect();
  expect(client.era).toBe("modern");
  const calls = () => transport.sent.filter((message) => message.method === "tools/call") as { id?: number; params: any }[];
  return { client, transport, calls };
}

const done = (text: string) => ({ resultType: "complete", content: [{ type: "text", text }] });

describe("multi-round-trip tool calls (2026-07-28)", () => {
  test("an input_required elicitation is answered by the handler and the call retried with a new id and the state echoed", async () => {
    const state = "  opaque {\"s\":1}\n ";
    const handler: ElicitationHandler = async (request) => {
      expect(request).toMatchObject({ server: "memo", mode: "form", message: "Confirm?" });
      return { action: "accept", content: { confirmed: true } };
    };
    const { client, calls } = await modernClient(
      (params) =>
        params.inputResponses
          ? done(`confirmed=${params.inputResponses.confirm.content.confirmed}`)
          : { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: FORM } }, requestState: state },
      { elicitation: handler },
    );
    const result = await client.callTool("confirm_it", { a: 1 });
    expect(result.content).toEqual([{ type: "text", text: "confirmed=true" }]);
    const [first, retry] = calls();
    expect(retry!.id).not.toBe(first!.id);
    expect(retry!.params).toMatchObject({ name: "confirm_it", arguments: { a: 1 }, requestState: state, inputResponses: { confirm: { action: "accept", content: { confirmed: true } } } });
    expect(retry!.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    expect(retry!.params._meta["io.modelcontextprotocol/clientCapabilities"]).toMatchObject({ elicitation: {} });
    expect(retry!.params._meta.progressToken).toBe(first!.params._meta.progressToken);
  });

  for (const action of ["decline", "cancel"] as const) {
    test(`a ${action} is sent back as the answer, without a requestState when none came`, async () => {
      const { client, calls } = await modernClient(
        (params) => (params.inputResponses ? done(params.inputResponses.confirm.action) : { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: FORM } } }),
        { elicitation: async () => ({ action }) },
      );
      expect((await client.callTool("t", {})).content).toEqual([{ type: "text", text: action }]);
      expect("requestState" in calls()[1]!.params).toBe(false);
    });
  }

  test("roots/list as an input request is answered with the roots", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cat-code-mrtr-roots-"));
    const { client } = await modernClient(
      (params) =>
        params.inputResponses ? done(params.inputResponses.r.roots.map((root: { name: string }) => root.name).join(",")) : { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } },
      { roots: new RootsProvider(dir) },
    );
    expect((await client.callTool("t", {})).content).toEqual([{ type: "text", text: dir.split("/").pop()! }]);
  });

  test("sampling, or a feature this client was not given, fails the call naming it; nothing is retried", async () => {
    for (const method of ["sampling/createMessage", "elicitation/create"]) {
      const { client, calls } = await modernClient(() => ({ resultType: "input_required", inputRequests: { x: { method, params: FORM } } }));
      const error = await client.callTool("t", {}).catch((e) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(ErrorCode.InvalidResult);
      expect(error.message).toContain(`the server 'memo' asked for "${method}"`);
      expect(calls()).toHaveLength(1);
    }
  });

  test("an invalid elicitation input request fails the call with -32602 naming the server", async () => {
    let asked = 0;
    const { client } = await modernClient(() => ({ resultType: "input_required", inputRequests: { x: { method: "elicitation/create", params: { message: 1 } } } }), {
      elicitation: async () => (asked++, { action: "decline" }),
    });
    const error = await client.callTool("t", {}).catch((e) => e);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("invalid elicitation request from 'memo'");
    expect(asked).toBe(0);
  });

  test("a result without resultType is complete: no retry", async () => {
    const { client, calls } = await modernClient(() => ({ content: [{ type: "text", text: "old style" }] }));
    expect((await client.callTool("t", {})).content).toEqual([{ type: "text", text: "old style" }]);
    expect(calls()).toHaveLength(1);
  });

  test("answers and state of one call are never sent with another call", async () => {
    const { client, calls } = await modernClient(
      (params) =>
        params.arguments.ask && !params.inputResponses
          ? { resultType: "input_required", inputRequests: { c: { method: "elicitation/create", params: FORM } }, requestState: "s1" }
          : done("ok"),
      { elicitation: async () => ({ action: "decline" }) },
    );
    await client.callTool("t", { ask: true });
    await client.callTool("u", {});
    const unrelated = calls()[2]!.params;
    expect(unrelated.name).toBe("u");
    expect("inputResponses" in unrelated || "requestState" in unrelated).toBe(false);
  });

  test("aborting the call while the form is open cancels the form and the call", async () => {
    const controller = new AbortController();
    let formSignal: AbortSignal | undefined;
    const { client, calls } = await modernClient(() => ({ resultType: "input_required", inputRequests: { c: { method: "elicitation/create", params: FORM } } }), {
      elicitation: (_request, signal) =>
        new Promise((resolve) => {
          formSignal = signal;
          signal?.addEventListener("abort", () => resolve({ action: "cancel" }));
          controller.abort();
        }),
    });
    const error = await client.callTool("t", {}, { signal: controller.signal }).catch((e) => e);
    expect(formSignal?.aborted).toBe(true);
    expect(error.code).toBe(ErrorCode.RequestCancelled);
    expect(calls()).toHaveLength(1);
  });
});

describe("x-mcp-header over stdio", () => {
  test("stdio ignores the markings: a tool with invalid ones is kept and calls carry no headers", async () => {
    const transport = new ModernMemoryTransport({
      "server/discover": discover,
      "tools/list": () => ({ tools: [{ name: "bad", inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } } }] }),
    });
    const rejected: string[] = [];
    const client = new McpClient(transport, { onRejectedTool: (tool) => rejected.push(tool.name) });
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["bad"]);
    expect(rejected).toEqual([]);
  });
});
