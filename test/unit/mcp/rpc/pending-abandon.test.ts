import { describe, expect, test } from "bun:test";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { PendingRequests } from "../../../../src/mcp/rpc/pending-requests.ts";

describe("PendingRequests.abandon", () => {
  test("a request given up by its id rejects with the reason and is abandoned; its neighbours under the same signal are not", async () => {
    const abandoned: { id: number; reason: string }[] = [];
    const pending = new PendingRequests((id, _method, reason) => abandoned.push({ id, reason }));
    const shared = new AbortController();
    const given = pending.register("tools/call", shared.signal);
    const stayed = pending.register("tools/call", shared.signal);
    pending.abandon(given.id, McpError.timeout("tools/call", 1000));
    expect(await given.answer.catch((e) => e)).toMatchObject({ message: "tools/call timed out after 1000 ms" });
    expect(abandoned).toEqual([{ id: given.id, reason: "tools/call timed out after 1000 ms" }]);
    expect(pending.size).toBe(1);
    // The shared signal no longer holds the given-up request: its abort gives up the other only.
    shared.abort(McpError.cancelled("tools/call"));
    expect(await stayed.answer.catch((e) => e)).toMatchObject({ message: "tools/call was cancelled" });
    expect(abandoned.map(({ id }) => id)).toEqual([given.id, stayed.id]);
    expect(pending.size).toBe(0);
  });

  test("an id that is not pending (answered, or never sent) is ignored", async () => {
    const abandoned: number[] = [];
    const pending = new PendingRequests((id) => abandoned.push(id));
    const { id, answer } = pending.register("ping");
    pending.settle({ jsonrpc: "2.0", id, result: {} });
    expect(await answer).toEqual({});
    pending.abandon(id, McpError.timeout("ping", 1));
    pending.abandon(42, McpError.timeout("ping", 1));
    expect([abandoned, pending.size]).toEqual([[], 0]);
  });
});
