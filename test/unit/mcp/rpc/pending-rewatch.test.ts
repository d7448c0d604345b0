import { describe, expect, test } from "bun:test";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { PendingRequests } from "../../../../src/mcp/rpc/pending-requests.ts";

const settled = (answer: Promise<unknown>) => {
  const state: { done: boolean; error?: unknown } = { done: false };
  answer.then(
    () => (state.done = true),
    (error) => Object.assign(state, { done: true, error }),
  );
  return state;
};
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("PendingRequests.rewatch", () => {
  test("a request moved to another signal outlives the old one's abort, and its neighbours do not", async () => {
    const abandoned: number[] = [];
    const pending = new PendingRequests((id) => abandoned.push(id));
    const shared = new AbortController();
    const moved = pending.register("tools/call", shared.signal);
    const stayed = pending.register("tools/call", shared.signal);
    const own = new AbortController();
    pending.rewatch(moved.id, own.signal);
    const movedState = settled(moved.answer);
    const stayedState = settled(stayed.answer);
    shared.abort(McpError.timeout("tools/call", 1000));
    await flush();
    expect(stayedState.error).toMatchObject({ code: McpError.timeout("x", 1).code });
    expect(movedState.done).toBe(false);
    expect(abandoned).toEqual([stayed.id]);
    own.abort(McpError.timeout("tools/call", 2000));
    await flush();
    expect(movedState.error).toMatchObject({ message: "tools/call timed out after 2000 ms" });
    expect(abandoned).toEqual([stayed.id, moved.id]);
    expect(pending.size).toBe(0);
  });

  test("moving to a signal that has already aborted gives the request up at once", async () => {
    const abandoned: number[] = [];
    const pending = new PendingRequests((id) => abandoned.push(id));
    const { id, answer } = pending.register("tools/call", new AbortController().signal);
    const gone = new AbortController();
    gone.abort(McpError.cancelled("tools/call"));
    pending.rewatch(id, gone.signal);
    expect(await answer.catch((e) => e)).toMatchObject({ message: "tools/call was cancelled" });
    expect(abandoned).toEqual([id]);
    expect(pending.size).toBe(0);
  });

  test("an id that is not pending is ignored", () => {
    const pending = new PendingRequests();
    pending.rewatch(42, new AbortController().signal);
    expect(pending.size).toBe(0);
  });
});
