/**
 * A completion is asked while a person waits at Tab: its own short timeout and the caller's abort
 * both end it at once, and the server is told to stop (`notifications/cancelled`).
 */
import { expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { MemoryTransport, NEVER } from "../../../helpers/memory-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

async function silentCompleter(clock: FakeClock) {
  const transport = new MemoryTransport({
    initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { completions: {}, prompts: {} } }),
    "completion/complete": () => NEVER,
  });
  const client = new McpClient(transport, { timeoutMs: 30_000, clock });
  await client.connect();
  return { transport, client };
}

const ref = { type: "ref/prompt" as const, name: "p" };

test("a completion's own timeout ends it and cancels it on the server", async () => {
  const clock = new FakeClock();
  const { transport, client } = await silentCompleter(clock);
  const asked = client.complete(ref, { name: "a", value: "x" }, { timeoutMs: 1500, context: { b: "y" } }).catch((e: unknown) => e);
  await waitFor(() => transport.sent.some((m) => m.method === "completion/complete"), "the completion request");
  expect(transport.sent.find((m) => m.method === "completion/complete")!.params).toEqual({ ref, argument: { name: "a", value: "x" }, context: { arguments: { b: "y" } } });
  // 1.5 s plus its timeout group's window (a tenth of the timeout): the latest it may end.
  clock.advance(1650);
  const error = (await asked) as McpError;
  expect(error.isTimeout).toBe(true);
  expect(error.message).toBe("completion/complete timed out after 1500 ms");
  await waitFor(() => transport.sent.some((m) => m.method === "notifications/cancelled"), "notifications/cancelled");
});

test("the caller's abort ends a completion as a cancellation, not a failure", async () => {
  const { transport, client } = await silentCompleter(new FakeClock());
  const abort = new AbortController();
  const asked = client.complete(ref, { name: "a", value: "" }, { signal: abort.signal }).catch((e: unknown) => e);
  await waitFor(() => transport.sent.some((m) => m.method === "completion/complete"), "the completion request");
  abort.abort();
  expect(((await asked) as McpError).isCancelled).toBe(true);
  await waitFor(() => transport.sent.some((m) => m.method === "notifications/cancelled"), "notifications/cancelled");
});
