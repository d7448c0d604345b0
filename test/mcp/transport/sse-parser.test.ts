import { describe, expect, test } from "bun:test";
import { SseParser, type SseEvent } from "../../../src/mcp/transport/sse-parser.ts";

const encoder = new TextEncoder();

/** Feeds text to a fresh parser in the given chunk sizes (bytes), and returns what it dispatched. */
function parse(text: string | Uint8Array, chunkSize = Number.MAX_SAFE_INTEGER): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  for (let offset = 0; offset < bytes.length; offset += chunkSize) parser.push(bytes.subarray(offset, offset + chunkSize));
  parser.finish();
  return { events, parser };
}

describe("SseParser", () => {
  test("an event's data, id and type are dispatched at the blank line", () => {
    const { events } = parse('event: message\nid: 7\ndata: {"a":1}\n\n');
    expect(events).toEqual([{ type: "message", data: '{"a":1}', id: "7" }]);
  });

  test("an event without a type is a message", () => {
    expect(parse("data: x\n\n").events[0]?.type).toBe("message");
  });

  test("multi-line data is joined with newlines", () => {
    expect(parse("data: one\ndata: two\ndata:three\n\n").events[0]?.data).toBe("one\ntwo\nthree");
  });

  test("only one space after the colon is dropped", () => {
    expect(parse("data:   indented\n\n").events[0]?.data).toBe("  indented");
  });

  test("comments are skipped and do not end an event", () => {
    const { events } = parse(": keep-alive\ndata: a\n: another\ndata: b\n\n");
    expect(events).toEqual([{ type: "message", data: "a\nb", id: undefined }]);
  });

  test("CRLF, CR and LF all end lines, mixed in one stream", () => {
    const { events } = parse("data: crlf\r\n\r\ndata: cr\r\rdata: lf\n\n");
    expect(events.map((e) => e.data)).toEqual(["crlf", "cr", "lf"]);
  });

  test("a CRLF split across two chunks is one line end, not two", () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((event) => events.push(event));
    parser.push(encoder.encode("data: a\r"));
    parser.push(encoder.encode("\ndata: b\r"));
    parser.push(encoder.encode("\n\r"));
    parser.push(encoder.encode("\n"));
    expect(events.map((e) => e.data)).toEqual(["a\nb"]);
  });

  test("a priming event (an id and empty data) dispatches empty data and sets the last event id", () => {
    const { events, parser } = parse("id: prime-1\ndata: \n\n");
    expect(events).toEqual([{ type: "message", data: "", id: "prime-1" }]);
    expect(parser.lastEventId).toBe("prime-1");
  });

  test("an event with no data is not dispatched, but its id and retry count", () => {
    const { events, parser } = parse("id: 42\nretry: 300\n\n");
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe("42");
    expect(parser.retryMs).toBe(300);
  });

  test("a retry that is not all digits is ignored", () => {
    expect(parse("retry: 12a\nretry: 50\nretry: -1\n\n").parser.retryMs).toBe(50);
  });

  test("an id containing NUL is ignored", () => {
    expect(parse("id: good\n\nid: ba\0d\n\n").parser.lastEventId).toBe("good");
  });

  test("the last event id stays for later events that carry none", () => {
    const { events } = parse("id: 1\ndata: a\n\ndata: b\n\n");
    expect(events.map((e) => e.id)).toEqual(["1", "1"]);
  });

  test("a field without a colon has an empty value; unknown fields are ignored", () => {
    const { events } = parse("data\nfoo: bar\ndata: x\n\n");
    expect(events[0]?.data).toBe("\nx");
  });

  test("an event cut off by the end of the stream is dropped", () => {
    expect(parse("data: complete\n\ndata: partial\n").events.map((e) => e.data)).toEqual(["complete"]);
  });

  test("a leading BOM is stripped once", () => {
    const { events } = parse("\uFEFFdata: x\n\ndata: \uFEFFy\n\n");
    expect(events.map((e) => e.data)).toEqual(["x", "\uFEFFy"]);
  });

  test("any chunking, even one byte at a time through multi-byte characters, gives the same events", () => {
    const text = 'id: é1\r\ndata: {"text":"你好 ✓ 😀"}\r\n\r\n: ping\ndata: line1\ndata: 行二\n\n';
    const whole = parse(text).events;
    expect(whole.map((e) => e.data)).toEqual(['{"text":"你好 ✓ 😀"}', "line1\n行二"]);
    for (const size of [1, 2, 3, 5, 7]) expect(parse(text, size).events).toEqual(whole);
  });

  test("a 32 MB data line in 16 KB chunks is parsed in linear time", () => {
    const size = 32 * 1024 * 1024;
    const payload = new Uint8Array(size + 8);
    payload.fill(0x61); // "a"
    payload.set(encoder.encode("data: "), 0);
    payload.set(encoder.encode("\n\n"), size + 6);
    const started = performance.now();
    const { events } = parse(payload, 16 * 1024);
    const elapsed = performance.now() - started;
    expect(events).toHaveLength(1);
    expect(events[0]!.data.length).toBe(size);
    // Linear is well under a second here; re-joining the line per chunk would take minutes.
    expect(elapsed).toBeLessThan(5_000);
  });
});
