import { describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { ProgressUpdate } from "../../../../src/mcp/client/progress.ts";
import { MAX_PROGRESS_STRETCH } from "../../../../src/mcp/client/request-timeout.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { initializeHandler, MemoryTransport, NEVER } from "../../../helpers/memory-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const TIMEOUT = 1000;

/** A legacy server whose tools/call never answers by itself: the test reports progress for it. */
async function setup() {
  const clock = new FakeClock();
  const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => NEVER });
  const client = new McpClient(transport, { clock, timeoutMs: TIMEOUT });
  await client.connect();
  const tokenOf = (index: number) => {
    const calls = transport.sent.filter((message) => message.method === "tools/call");
    return (calls[index]?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
  };
  const progress = (token: unknown, value: number) =>
    transport.serverNotification("notifications/progress", { progressToken: token, progress: value, total: 10, message: `step ${value}` });
  return { clock, transport, client, tokenOf, progress };
}

/** Settles as soon as the call does, so a test can ask "still running?" without waiting. */
function watch(call: Promise<unknown>) {
  const state: { settled: boolean; error?: { code?: number; message: string } } = { settled: false };
  call.then(
    () => (state.settled = true),
    (error) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/** Lets the promise callbacks of a fired timer run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("progress of a tools/call", () => {
  test("every call carries its own progress token, and its updates reach only its onProgress", async () => {
    const { client, tokenOf, progress } = await setup();
    const first: ProgressUpdate[] = [];
    const second: ProgressUpdate[] = [];
    void client.callTool("a", {}, { onProgress: (update) => first.push(update) }).catch(() => {});
    void client.callTool("b", {}, { onProgress: (update) => second.push(update) }).catch(() => {});
    await waitFor(() => tokenOf(1) !== undefined, "both calls sent");
    expect(tokenOf(0)).not.toEqual(tokenOf(1));
    progress(tokenOf(1), 1);
    progress(tokenOf(0), 2);
    progress(tokenOf(0), 1); // backwards: dropped
    expect(first).toEqual([{ progress: 2, total: 10, message: "step 2" }]);
    expect(second).toEqual([{ progress: 1, total: 10, message: "step 1" }]);
    await client.close();
  });

  test("progress resets the call's timeout; a call in the same timeout group that hears none still times out", async () => {
    const { clock, transport, client, tokenOf, progress } = await setup();
    const talking = watch(client.callTool("a", {}));
    const silent = watch(client.callTool("b", {}));
    await waitFor(() => tokenOf(1) !== undefined, "both calls sent");
    clock.advance(900);
    progress(tokenOf(0), 1);
    clock.advance(200); // past the first deadline (1000 ms + the group's window)
    await flush();
    expect(silent.error?.code).toBe(ErrorCode.RequestTimeout);
    expect(talking.settled).toBe(false);
    clock.advance(790); // 1,890 ms: 990 ms after the progress
    await flush();
    expect(talking.settled).toBe(false);
    clock.advance(10); // 1,900 ms: a full timeout after the progress
    await flush();
    expect(talking.error).toMatchObject({ code: ErrorCode.RequestTimeout, message: `tools/call timed out after ${TIMEOUT} ms` });
    const cancelled = transport.sent.filter((message) => message.method === "notifications/cancelled");
    expect(cancelled).toHaveLength(2);
  });

  test(`progress stretches a call to at most ${MAX_PROGRESS_STRETCH}x its timeout`, async () => {
    const { clock, client, tokenOf, progress } = await setup();
    const call = watch(client.callTool("a", {}));
    await waitFor(() => tokenOf(0) !== undefined, "the call sent");
    // A progress every 900 ms: each would keep the call alive, but not past the overall bound.
    for (let step = 1; !call.settled && step <= 2 * MAX_PROGRESS_STRETCH; step++) {
      clock.advance(900);
      progress(tokenOf(0), step);
      await flush();
    }
    expect(call.settled).toBe(true);
    expect(clock.now()).toBeGreaterThan(TIMEOUT * (MAX_PROGRESS_STRETCH - 1));
    expect(clock.now()).toBeLessThanOrEqual(TIMEOUT * MAX_PROGRESS_STRETCH);
    expect(call.error?.code).toBe(ErrorCode.RequestTimeout);
    expect(call.error?.message).toBe(
      `tools/call timed out: it kept reporting progress, but a call may run at most ${TIMEOUT * MAX_PROGRESS_STRETCH} ms (${MAX_PROGRESS_STRETCH}× its ${TIMEOUT} ms timeout)`,
    );
  });

  test("a progress for a call that has settled, or with a token nobody holds, is dropped without harm", async () => {
    const clock = new FakeClock();
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => ({ content: [] }) });
    const client = new McpClient(transport, { clock });
    await client.connect();
    const updates: ProgressUpdate[] = [];
    await client.callTool("a", {}, { onProgress: (update) => updates.push(update) });
    const token = (transport.sent.find((message) => message.method === "tools/call")!.params as any)._meta.progressToken;
    transport.serverNotification("notifications/progress", { progressToken: token, progress: 1 });
    transport.serverNotification("notifications/progress", { progressToken: "made-up", progress: 1 });
    expect(updates).toEqual([]);
    expect(clock.pending({ referenced: true })).toBe(0);
  });

  test("the progress token joins the caller's own _meta in a legacy call without replacing it", async () => {
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/call": () => ({ content: [] }) });
    const client = new McpClient(transport);
    await client.connect();
    await client.callTool("a", { x: 1 });
    const sent = transport.sent.find((message) => message.method === "tools/call")!;
    expect(sent.params).toEqual({ name: "a", arguments: { x: 1 }, _meta: { progressToken: expect.any(Number) } });
  });
});
