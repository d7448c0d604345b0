const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** The `event` field; `message` when the server gave none. */
  type: string;
  /** The `data` lines joined with `\n`; `""` for a priming event (an id and an empty `data`). */
  data: string;
  /** The id of this event, or of the last one before it that had an id (the SSE "last event ID"), if any. */
  id: string | undefined;
}

/**
 * Parses `text/event-stream` bytes as they arrive, per the WHATWG event-stream rules: lines end with
 * LF, CRLF or CR (a CRLF may be split across chunks); `:` starts a comment; `field: value` loses one
 * space after the colon; a blank line dispatches. Bytes are scanned once; the unfinished part of a
 * line is decoded as it arrives (a character split between chunks decodes whole), so a 32 MB
 * `data` line is held once as text pieces, joined when it ends, not as bytes, then a joined copy,
 * then text.
 */
export class SseParser {
  /**
   * The id of the last event the stream completed (the spec's "last event ID string"); sent back as
   * `Last-Event-ID` to resume. An `id` in an event cut off by the end of the stream does not count:
   * resuming from it would skip that event, the very response the client is waiting for.
   */
  get lastEventId(): string | undefined {
    return this.dispatchedId;
  }

  /** Where a new connection of the stream starts from. */
  set lastEventId(id: string | undefined) {
    this.dispatchedId = id;
    this.idBuffer = id;
  }
  /** The last valid `retry` field, in ms: how long the server asks us to wait before reconnecting. */
  retryMs: number | undefined;

  private dispatchedId: string | undefined;
  /** The spec's "last event ID buffer": set by an `id` field, made the last event id at the blank line. */
  private idBuffer: string | undefined;
  // `ignoreBOM: true` keeps a BOM inside a line: the spec strips one only at the very start of the stream.
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  /** The decoded start of a line whose end has not arrived. */
  private partial: string[] = [];
  private atStreamStart = true;
  private skipLeadingLf = false;
  private data: string[] = [];
  private hasData = false;
  private eventType = "";

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.skipLeadingLf && chunk.length > 0) {
      // The previous chunk ended with CR; an LF here is the second half of that CRLF.
      if (chunk[0] === LF) start = 1;
      this.skipLeadingLf = false;
    }
    // Both positions are cached and searched again only once passed: one scan of the chunk in all.
    let nextLf = chunk.indexOf(LF, start);
    let nextCr = chunk.indexOf(CR, start);
    while (start < chunk.length) {
      if (nextLf !== -1 && nextLf < start) nextLf = chunk.indexOf(LF, start);
      if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf(CR, start);
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextLf, nextCr);
      if (end === -1) break;
      this.completeLine(chunk.subarray(start, end));
      start = end + 1;
      if (end === nextCr) {
        if (end + 1 < chunk.length) {
          if (chunk[end + 1] === LF) start = end + 2;
        } else {
          this.skipLeadingLf = true;
        }
      }
    }
    if (start < chunk.length) this.partial.push(this.decoder.decode(chunk.subarray(start), { stream: true }));
  }

  /** The stream ended. An event without its closing blank line is dropped, as the spec says. */
  finish(): void {
    this.partial = [];
    this.decoder.decode();
    this.resetEvent();
  }

  private completeLine(tail: Uint8Array): void {
    // Not streamed: the line ends here, so a broken sequence before its end stays in this line.
    let line = this.decoder.decode(tail);
    if (this.partial.length > 0) {
      this.partial.push(line);
      line = this.partial.join("");
      this.partial = [];
    }
    if (this.atStreamStart) {
      this.atStreamStart = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    this.processLine(line);
  }

  private processLine(line: string): void {
    if (line === "") return this.dispatch();
    if (line.charCodeAt(0) === COLON) return; // a comment, often a keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line.charCodeAt(valueStart) === 0x20) valueStart++;
    const value = () => line.slice(valueStart);
    switch (field) {
      case "data":
        this.data.push(value());
        this.hasData = true;
        return;
      case "event":
        this.eventType = value();
        return;
      case "id": {
        const id = value();
        if (!id.includes("\0")) this.idBuffer = id;
        return;
      }
      case "retry": {
        const retry = value();
        if (/^\d+$/.test(retry)) this.retryMs = Number(retry);
        return;
      }
      default:
      // Unknown fields are ignored.
    }
  }

  private dispatch(): void {
    this.dispatchedId = this.idBuffer;
    if (!this.hasData) {
      // No data: nothing to deliver, though an `id` or `retry` on it still counted.
      this.resetEvent();
      return;
    }
    const event: SseEvent = { type: this.eventType || "message", data: this.data.join("\n"), id: this.dispatchedId };
    this.resetEvent();
    this.onEvent(event);
  }

  private resetEvent(): void {
    this.data = [];
    this.hasData = false;
    this.eventType = "";
  }
}
