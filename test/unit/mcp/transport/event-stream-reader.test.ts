/**
 * The SSE reader's behaviour (the grammar is eventsource-parser's; the position carried across
 * connections, the size limit and the idle limit are ours), fed byte streams cut as a network may
 * cut them. The transport tests cover the same reader over real sockets.
 */
import { describe, expect, test } from "bun:test";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { readStream, type StreamOutcome, type StreamPosition } from "../../../../src/mcp/transport/event-stream-reader.ts";

const encoder = new TextEncoder();
const START: StreamPosition = { lastEventId: undefined, retryMs: undefined };

/** A body that sends `bytes` in pieces of `chunkSize` and ends. */
function body(text: string | Uint8Array, chunkSize = Number.MAX_SAFE_INTEGER): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

/** Reads one connection; returns the messages it delivered and where the stream stands. */
async function read(
  stream: ReadableStream<Uint8Array>,
  options: { from?: StreamPosition; maxMessageChars?: number; eventIdleTimeoutMs?: number } = {},
): Promise<{ messages: unknown[]; outcome: StreamOutcome }> {
  const messages: unknown[] = [];
  const outcome = await readStream(stream, options.from ?? START, {
    url: "http://127.0.0.1:1/mcp",
    method: "tools/call",
    signal: new AbortController().signal,
    onMessage: (value) => {
      messages.push(value);
      return false;
    },
    maxMessageChars: options.maxMessageChars ?? 1024 * 1024,
    eventIdleTimeoutMs: options.eventIdleTimeoutMs,
  });
  return { messages, outcome };
}

describe("reading an SSE stream", () => {
  test("a message event's data is delivered as JSON; events of another type are skipped", async () => {
    const { messages, outcome } = await read(body('event: message\nid: 7\ndata: {"a":1}\n\nevent: other\ndata: {"b":2}\n\ndata: {"c":3}\n\n'));
    expect(messages).toEqual([{ a: 1 }, { c: 3 }]);
    expect(outcome).toMatchObject({ lastEventId: "7", progressed: true, answered: false, stalled: false });
  });

  test("multi-line data is joined with newlines; comments neither deliver nor end an event", async () => {
    const { messages } = await read(body(': keep-alive\ndata: {"text":\n: between\ndata: "two lines"}\n\n'));
    expect(messages).toEqual([{ text: "two lines" }]);
  });

  test("CRLF, CR and LF all end lines, mixed in one stream, and a CRLF split across chunks is one line end", async () => {
    expect((await read(body('data: {"n":1}\r\n\r\ndata: {"n":2}\r\rdata: {"n":3}\n\n'))).messages).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const pieces = ['data: {"a":\r', '\ndata: 1}\r', "\n\r", "\n"].map((p) => encoder.encode(p));
    const split = new ReadableStream<Uint8Array>({
      pull: (controller) => (pieces.length ? controller.enqueue(pieces.shift()!) : controller.close()),
    });
    expect((await read(split)).messages).toEqual([{ a: 1 }]);
  });

  test("a priming event (an id and empty data) delivers nothing but sets the id to resume from", async () => {
    const { messages, outcome } = await read(body("id: prime-1\ndata: \n\n"));
    expect(messages).toEqual([]);
    expect(outcome).toMatchObject({ lastEventId: "prime-1", progressed: false });
  });

  test("an event with no data still counts its id and retry; a retry that is not all digits is ignored", async () => {
    const { outcome } = await read(body("id: 42\nretry: 300\n\nretry: 12a\n\nretry: -1\n\n"));
    expect(outcome).toMatchObject({ lastEventId: "42", retryMs: 300 });
  });

  test("an id containing NUL is ignored; an empty id clears the resumption point", async () => {
    expect((await read(body("id: good\n\nid: ba\0d\n\n"))).outcome.lastEventId).toBe("good");
    expect((await read(body("id: good\n\nid:\n\n"))).outcome.lastEventId).toBeUndefined();
  });

  test("an id in an event cut off by the end of the stream is not the id to resume from", async () => {
    const { messages, outcome } = await read(body('id: prime\ndata: \n\nid: answer\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"res'));
    expect(messages).toEqual([]);
    // Resuming after "answer" would skip the very event that never arrived whole.
    expect(outcome.lastEventId).toBe("prime");
  });

  test("a resumed connection starts from the given position until a complete event moves it on", async () => {
    const from = { lastEventId: "prime", retryMs: 250 };
    expect((await read(body("id: next\ndata: x"), { from })).outcome).toMatchObject(from);
    expect((await read(body("id: next\ndata: {}\n\n"), { from })).outcome).toMatchObject({ lastEventId: "next", retryMs: 250 });
  });

  test("a leading BOM is stripped once; a later one is data", async () => {
    const { messages } = await read(body('\uFEFFdata: {"x":1}\n\ndata: "\uFEFFy"\n\n'));
    expect(messages).toEqual([{ x: 1 }, "\uFEFFy"]);
  });

  test("any chunking, even one byte at a time through multi-byte characters, gives the same messages", async () => {
    const text = 'id: é1\r\ndata: {"text":"你好 ✓ 😀"}\r\n\r\n: ping\ndata: ["line1",\ndata: "行二"]\n\n';
    const whole = (await read(body(text))).messages;
    expect(whole).toEqual([{ text: "你好 ✓ 😀" }, ["line1", "行二"]]);
    for (const size of [1, 2, 3, 5, 7]) expect((await read(body(text, size))).messages).toEqual(whole);
  });

  test("a 32 MB data line in 16 KB chunks is read in linear time", async () => {
    const size = 32 * 1024 * 1024;
    const payload = new Uint8Array(size + 10);
    payload.fill(0x61); // "a"
    payload.set(encoder.encode('data: "'), 0);
    payload.set(encoder.encode('"\n\n'), size + 7);
    const started = performance.now();
    const { messages } = await read(body(payload, 16 * 1024), { maxMessageChars: 256 * 2 ** 20 });
    const elapsed = performance.now() - started;
    expect((messages[0] as string).length).toBe(size);
    // Linear is well under a second here; re-joining the line per chunk would take minutes.
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe("the reader's limits", () => {
  /** A body that sends an event's start, then `piece` for ever (or up to `upTo` bytes), counting what was pulled. */
  function endless(start: string, piece: string, upTo = Infinity) {
    let pulled = 0;
    let cancelled = false;
    const bytes = encoder.encode(piece);
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode(start)),
      pull: (controller) => {
        if (pulled >= upTo) return controller.close();
        pulled += bytes.length;
        controller.enqueue(bytes);
      },
      cancel: () => void (cancelled = true),
    });
    return { stream, pulled: () => pulled, cancelled: () => cancelled };
  }

  test("an endless data line fails at the size limit, naming it, and reading stops", async () => {
    const source = endless("data: ", "x".repeat(1000));
    const error = await read(source.stream, { maxMessageChars: 100_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as Error).message).toBe(
      "the server at http://127.0.0.1:1/mcp sent an event larger than 100000 characters on the stream for tools/call; it was refused",
    );
    expect(source.cancelled()).toBe(true);
    expect(source.pulled()).toBeLessThan(200_000);
  });

  test("an event over the limit that arrives whole in one chunk is refused too", async () => {
    const error = await read(body(`data: "${"z".repeat(5000)}"\n\n`), { maxMessageChars: 4096 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("larger than 4096 characters");
  });

  test("an endless event of short data lines fails at the size limit too", async () => {
    const source = endless("", "data: yyyyyyyy\n");
    const error = await read(source.stream, { maxMessageChars: 100_000 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("larger than 100000 characters");
    expect(source.pulled()).toBeLessThan(200_000);
  });

  test("an endless line that is no field is dropped as it comes, without growing", async () => {
    // A hundred times the limit goes by without an error: nothing of it is held.
    const source = endless("garbage", "z".repeat(1000), 1_000_000);
    const { messages } = await read(source.stream, { maxMessageChars: 10_000 });
    expect(messages).toEqual([]);
    expect(source.pulled()).toBe(1_000_000);
  });

  test("an event left unfinished is dropped after the idle limit; a stream quiet between events is not", async () => {
    const quiet = endlessQuiet('data: {"done":1}\n\n');
    const stalled = endlessQuiet('data: {"half":');
    const quietReading = read(quiet.stream, { eventIdleTimeoutMs: 100 });
    let quietDone = false;
    void quietReading.then(() => (quietDone = true));
    // Started second, so its idle limit expires after the quiet one's would.
    const { outcome, messages } = await read(stalled.stream, { eventIdleTimeoutMs: 100 });
    expect(outcome.stalled).toBe(true);
    expect(messages).toEqual([]);
    expect(stalled.cancelled()).toBe(true);
    expect(quietDone).toBe(false);
    expect(quiet.cancelled()).toBe(false);
    quiet.end();
    expect((await quietReading).outcome.stalled).toBe(false);
  });
});

/** A body that sends `text` and then nothing, until cancelled or `end()`. */
function endlessQuiet(text: string) {
  let cancelled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
      c.enqueue(encoder.encode(text));
    },
    cancel: () => void (cancelled = true),
  });
  return { stream, cancelled: () => cancelled, end: () => controller.close() };
}
