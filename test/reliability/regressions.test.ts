/** Bugs the fault matrix found, pinned at the unit where they lived. */
import { describe, expect, test } from "bun:test";
import { SseParser } from "../../src/mcp/transport/sse-parser.ts";

describe("SseParser resumption point", () => {
  test("an id in an event cut off by the end of the stream is not the id to resume from", () => {
    const parser = new SseParser(() => {});
    parser.push(new TextEncoder().encode('id: prime\ndata: \n\nid: answer\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"res'));
    parser.finish();
    // Resuming after "answer" would skip the very event that never arrived whole.
    expect(parser.lastEventId).toBe("prime");
  });

  test("a resumed parser starts from the given id until a complete event moves it on", () => {
    const parser = new SseParser(() => {});
    parser.lastEventId = "prime";
    parser.push(new TextEncoder().encode("id: next\ndata: x"));
    expect(parser.lastEventId).toBe("prime");
    parser.push(new TextEncoder().encode("\n\n"));
    expect(parser.lastEventId).toBe("next");
  });
});
