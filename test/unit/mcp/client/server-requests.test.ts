import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ElicitationHandler, ElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const FORM = {
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } }, required: ["name"] },
};

async function legacyClient(options: McpClientOptions = {}) {
  const transport = new MemoryTransport({ initialize: initializeHandler() });
  const client = new McpClient(transport, { name: "memo", ...options });
  await client.connect();
  return { client, transport };
}

describe("server requests of the handshake revisions", () => {
  for (const answer of [{ action: "accept", content: { name: "Ada" } }, { action: "decline" }, { action: "cancel" }] as const) {
    test(`elicitation/create goes to the handler, which answers ${answer.action}`, async () => {
      const asked: ElicitationRequest[] = [];
      const { transport } = await legacyClient({
        elicitation: async (request) => {
          asked.push(request);
          return answer;
        },
      });
      expect(await transport.serverRequest("elicitation/create", FORM)).toEqual({ result: answer });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ server: "memo", mode: "form", message: "What is your name?" });
    });
  }

  test("an invalid elicitation request is refused with -32602 naming the server, and the user is never asked", async () => {
    let asked = 0;
    const { transport } = await legacyClient({ elicitation: async () => (asked++, { action: "decline" }) });
    const reply = await transport.serverRequest("elicitation/create", { message: 42 });
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringContaining("invalid elicitation request from 'memo'") });
    expect(asked).toBe(0);
  });

  test("without a handler elicitation/create and roots/list get -32601, ping {} and anything else -32601", async () => {
    const { transport } = await legacyClient();
    expect(await transport.serverRequest("ping")).toEqual({ result: {} });
    for (const method of ["elicitation/create", "roots/list", "sampling/createMessage", "made/up"]) {
      expect((await transport.serverRequest(method, {})).error).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });

  test("roots/list answers the provider's folders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cat-code-roots-"));
    const { transport } = await legacyClient({ roots: new RootsProvider(dir) });
    const reply = await transport.serverRequest("roots/list");
    expect(reply.result).toEqual({ roots: [expect.objectContaining({ uri: pathToFileURL(dir).href.replace(/\/$/, "") })] });
  });

  test("a root added later is announced with notifications/roots/list_changed, once per change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cat-code-roots-"));
    const roots = new RootsProvider(dir);
    const { transport, client } = await legacyClient({ roots });
    mkdirSync(join(dir, "more"));
    roots.add(join(dir, "more"));
    roots.add(join(dir, "more"));
    const changes = () => transport.sent.filter((message) => message.method === "notifications/roots/list_changed").length;
    await waitFor(() => changes() === 1, "notifications/roots/list_changed");
    await client.close();
    mkdirSync(join(dir, "after"));
    roots.add(join(dir, "after"));
    expect(changes()).toBe(1);
  });

  test("a question still open when the client closes sees its signal abort", async () => {
    let seen: AbortSignal | undefined;
    const handler: ElicitationHandler = (_request, signal) =>
      new Promise((resolve) => {
        seen = signal;
        signal?.addEventListener("abort", () => resolve({ action: "cancel" }));
      });
    const { client, transport } = await legacyClient({ elicitation: handler });
    void transport.serverRequest("elicitation/create", FORM);
    await waitFor(() => seen, "the question");
    expect(seen!.aborted).toBe(false);
    await client.close();
    expect(seen!.aborted).toBe(true);
  });

  test("the server's notifications/cancelled naming an open question takes the form away; other ids change nothing", async () => {
    const signals: AbortSignal[] = [];
    const handler: ElicitationHandler = (_request, signal) =>
      new Promise((resolve) => {
        signals.push(signal!);
        signal?.addEventListener("abort", () => resolve({ action: "cancel" }));
      });
    const { transport } = await legacyClient({ elicitation: handler });
    const first = transport.serverRequest("elicitation/create", FORM);
    void transport.serverRequest("elicitation/create", FORM);
    await waitFor(() => signals.length === 2, "both questions");
    transport.serverNotification("notifications/cancelled", { requestId: "s-99" });
    transport.serverNotification("notifications/cancelled", { requestId: "s-1", reason: "tool cancelled" });
    await waitFor(() => signals[0]!.aborted, "the first question's signal to abort", { timeoutMs: 5000 });
    expect(await first).toEqual({ result: { action: "cancel" } });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });
});

describe("server notifications", () => {
  test("notifications/message goes to onLog, bounded; a malformed one reaches no log; onNotification still hears all", async () => {
    const logs: unknown[] = [];
    const others: string[] = [];
    const { transport } = await legacyClient({ onLog: (entry) => logs.push(entry), onNotification: (n) => others.push(n.method) });
    transport.serverNotification("notifications/message", { level: "warning", logger: "db", data: "x".repeat(5000) });
    transport.serverNotification("notifications/message", { level: "loud", data: "bad level" });
    transport.serverNotification("notifications/message", { level: "info", data: { rows: 3 } });
    expect(logs).toEqual([
      { server: "memo", level: "warning", logger: "db", data: `${"x".repeat(999)}…` },
      { server: "memo", level: "info", data: '{"rows":3}' },
    ]);
    expect(others).toEqual(["notifications/message", "notifications/message", "notifications/message"]);
  });
});
