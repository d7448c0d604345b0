import { describe, expect, test } from "bun:test";
import { boundedCompletion } from "../../../../src/mcp/client/completion-values.ts";
import { fetchAllPages, MAX_LIST_ITEMS, MAX_LIST_PAGES } from "../../../../src/mcp/client/paged-list.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";

const keepAll = (raws: unknown[]) => raws;

describe("fetchAllPages", () => {
  test("a server that never stops handing out new cursors is refused after 1000 pages", async () => {
    let asked = 0;
    const listing = fetchAllPages({
      method: "prompts/list",
      field: "prompts",
      request: async () => ({ prompts: [], nextCursor: `c${++asked}` }),
      accept: keepAll,
    });
    await expect(listing).rejects.toThrow(`prompts/list gave more than ${MAX_LIST_PAGES} pages`);
    expect(asked).toBe(MAX_LIST_PAGES);
  });

  test("more than 100,000 items in all is refused, not cut, before the page past the bound is kept", async () => {
    const page = Array.from({ length: 25_000 }, (_, i) => ({ uri: `x:${i}`, name: "x" }));
    let asked = 0;
    let accepted = 0;
    const error = await fetchAllPages({
      method: "resources/list",
      field: "resources",
      request: async () => ({ resources: page, nextCursor: `c${++asked}` }),
      accept: (raws) => ((accepted += raws.length), raws),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidResult);
    expect((error as McpError).message).toBe("resources/list gave more than 100,000 items; the list was refused");
    expect(accepted).toBe(MAX_LIST_ITEMS);
    expect(asked).toBe(5);
  });

  test("an empty cursor ends the list, as no cursor does", async () => {
    const items = await fetchAllPages({ method: "tools/list", field: "tools", request: async () => ({ tools: [1, 2], nextCursor: "" }), accept: keepAll });
    expect(items).toEqual([1, 2]);
  });
});

describe("boundedCompletion", () => {
  test("keeps at most 100 values, and says there are more", () => {
    const values = Array.from({ length: 150 }, (_, i) => `v${i}`);
    const completion = boundedCompletion({ completion: { values, total: 150 } });
    expect(completion.values).toHaveLength(100);
    expect(completion.values[99]).toBe("v99");
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  test("a value too long to type is left out; the others stay", () => {
    const completion = boundedCompletion({ completion: { values: ["a", "x".repeat(1001), "b"] } });
    expect(completion.values).toEqual(["a", "b"]);
    expect(completion.hasMore).toBeUndefined();
  });

  test("a short answer passes as it is; a malformed one is the server's error", () => {
    expect(boundedCompletion({ completion: { values: ["a"], hasMore: false } })).toEqual({ values: ["a"], hasMore: false });
    expect(() => boundedCompletion({ completion: { values: [1] } })).toThrow('invalid completion/complete result at "completion.values.0"');
  });
});
