import { createParser } from "eventsource-parser";
import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { systemClock, type Clock, type ClockTimer } from "../../system/clock.ts";
import { sleep } from "../../system/timers.ts";
import { httpStatusError } from "./http-errors.ts";
import { isEventStream, mediaType } from "./http-session.ts";
import { describeLimit } from "./message-size-limit.ts";
import { parseMessage } from "./parse-message.ts";

/** What reading one connection of a stream needs. */
export interface ReadStreamOptions {
  /** The endpoint, redacted: it goes into messages. */
  url: string;
  /** The method whose answer is awaited, for messages. */
  method: string;
  /** Aborted when the request is given up or the transport closes: stops reading and waiting. */
  signal: AbortSignal;
  /** Takes one JSON-RPC message (or batch) from the stream; returns true once it was the response that ends the exchange. */
  onMessage: (value: unknown) => boolean;
  /** The largest event held, in characters; a larger one fails the stream (`McpError`). */
  maxMessageChars: number;
  /**
   * How long an event may stay unfinished with no byte arriving before the connection is dropped
   * (`stalled`). Between events a stream may be quiet for ever; undefined waits for ever.
   */
  eventIdleTimeoutMs?: number;
  /** Where the idle limit gets its time (the system clock unless a test hands in a fake). */
  clock?: Clock;
}

export interface ReadUntilAnsweredOptions extends ReadStreamOptions {
  /**
   * Re-opens the stream with `GET` + `Last-Event-ID`. Absent (the 2026-07-28 revision has no
   * resumption), a stream that ends unanswered fails with an `McpError` of kind `stream-lost`.
   */
  resume?: (lastEventId: string) => Promise<Response>;
  /** The wait before resuming when the server sent no `retry`. */
  defaultRetryMs: number;
  /** Resumptions in a row that may bring nothing before giving up. */
  maxResumeAttempts: number;
}

/** Where a stream stands: carried over from one connection of it to the next. */
export interface StreamPosition {
  /** The last event id the server gave (the SSE "last event ID"); undefined when none, or an empty one. */
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

export interface StreamOutcome extends StreamPosition {
  answered: boolean;
  /** Whether any message arrived: a stream that moves is not failing, however often it drops. */
  progressed: boolean;
  /** Whether the connection was dropped because an event stayed unfinished past `eventIdleTimeoutMs`. */
  stalled: boolean;
}

/**
 * Reads an SSE answer to a POSTed request until the response to it arrives. A stream that ends
 * first is not a cancellation (the spec says so): if the server gave an event id, wait its `retry`
 * and resume with `GET` + `Last-Event-ID`, where the response may then arrive.
 */
export async function readUntilAnswered(first: Response, options: ReadUntilAnsweredOptions): Promise<void> {
  const { url, method, signal } = options;
  let body = first.body;
  let position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
  let attempts = 0;
  let lastFailure: string | undefined;
  for (;;) {
    if (body) {
      const outcome = await readStream(body, position, options);
      if (outcome.answered) return;
      position = outcome;
      if (outcome.progressed) attempts = 0;
    }
    signal.throwIfAborted();
    if (!options.resume) {
      throw new McpError(ErrorCode.ConnectionClosed, `the server at ${url} ended the stream before answering ${method}`, { url, kind: "stream-lost" });
    }
    const { lastEventId, retryMs } = position;
    if (lastEventId === undefined) {
      throw McpError.closed(`the server at ${url} ended the stream before answering ${method}, with no event id to resume from`);
    }
    if (attempts >= options.maxResumeAttempts) {
      throw McpError.closed(
        `the stream answering ${method} from ${url} dropped and ${attempts} attempts to resume it brought nothing${lastFailure ? ` (${lastFailure})` : ""}`,
      );
    }
    attempts++;
    if (!(await sleep(retryMs ?? options.defaultRetryMs, signal))) throw signal.reason;
    body = null;
    let response: Response;
    try {
      response = await options.resume(lastEventId);
    } catch (error) {
      // A connection that fails now may work on the next try; an abort or a refused redirect does not.
      signal.throwIfAborted();
      if (error instanceof McpError && error.status !== undefined) throw error;
      lastFailure = (error as Error).message;
      continue;
    }
    if (!response.ok) throw await httpStatusError(url, response);
    if (!isEventStream(response)) {
      await response.body?.cancel();
      throw new McpError(undefined, `resuming the stream for ${method}, ${url} answered ${mediaType(response) || "no content type"} instead of an event stream`, {
        status: response.status,
        url,
      });
    }
    body = response.body;
  }
}

/**
 * Reads one connection of a stream until it ends or `onMessage` says the awaited response came
 * (the standalone GET stream awaits none, so it reads to the end). The SSE grammar is
 * `eventsource-parser`'s; what is ours is the position (last event id, retry) carried across
 * connections, the size limit and the idle limit. Rejects when `signal` aborts, and with an
 * `McpError` for an event larger than `maxMessageChars` (resuming would only bring it again).
 */
export async function readStream(body: ReadableStream<Uint8Array>, from: StreamPosition, options: ReadStreamOptions): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { answered: false, progressed: false, stalled: false, ...from };
  let oversized = false;
  const parser = createParser({
    // The parser counts what it holds of an unfinished line and event, so this bounds memory.
    maxBufferSize: options.maxMessageChars,
    onId: (id) => {
      // An empty id resets it: the next resumption then carries none, as the SSE spec says.
      outcome.lastEventId = id === "" ? undefined : id;
    },
    onRetry: (ms) => {
      outcome.retryMs = ms;
    },
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") oversized = true;
    },
    onEvent: ({ event, data }) => {
      // An event that came whole within one chunk never sat in the parser's buffer: count it here.
      if (data.length > options.maxMessageChars) oversized = true;
      // An empty data field is a priming event: it only brings an id to resume from.
      if (outcome.answered || oversized || data === "") return;
      if (event !== undefined && event !== "message") return log.debug(`http: ${options.url}: skipped an SSE event of type ${event}`);
      outcome.progressed = true;
      let value: unknown;
      try {
        value = parseMessage(data);
      } catch {
        return log.debug(`http: ${options.url}: skipped an SSE event that is not JSON: ${data.slice(0, 200)}`);
      }
      if (options.onMessage(value)) outcome.answered = true;
    },
  });
  // `ignoreBOM`: the parser strips the one BOM the spec allows at the start; a later one is data.
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  const reader = body.getReader();
  const idle =
    options.eventIdleTimeoutMs === undefined
      ? undefined
      : new EventIdleWatch(
          options.eventIdleTimeoutMs,
          () => {
            outcome.stalled = true;
            reader.cancel().catch(() => {});
          },
          options.clock,
        );
  try {
    while (!outcome.answered && !outcome.stalled) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      parser.feed(text);
      if (oversized) {
        throw new McpError(
          undefined,
          `the server at ${options.url} sent an event larger than ${describeLimit(options.maxMessageChars)} on the stream for ${options.method}; it was refused`,
          { url: options.url },
        );
      }
      idle?.saw(text);
    }
  } catch (error) {
    options.signal.throwIfAborted();
    if (error instanceof McpError) throw error;
    // A dropped connection is what resumption is for.
    log.debug(`http: ${options.url}: the stream for ${options.method} broke: ${(error as Error).message}`);
  } finally {
    idle?.stop();
    // The stream's job ends with its response; stop reading so the connection is released.
    reader.cancel().catch(() => {});
  }
  if (outcome.stalled) log.debug(`http: ${options.url}: an event on the stream for ${options.method} stalled; dropping the connection`);
  // An event cut off by the end of the stream is dropped, as the spec says; so is its id.
  return outcome;
}

/**
 * Calls `onStall` when an event has been left unfinished for `timeoutMs` with no byte arriving.
 * The parser does not say whether it holds half an event, so this looks at how the text so far
 * ends: after a blank line (or before any byte) the stream is between events, and may stay quiet.
 * A comment line not followed by a blank line counts as an unfinished event: the price is a
 * reconnection, never a lost message.
 */
class EventIdleWatch {
  /** The last few characters seen: enough to tell whether they end with a blank line. */
  private tail = "";
  private lastByteAt = 0;
  private timer: ClockTimer | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onStall: () => void,
    private readonly clock: Clock = systemClock,
  ) {}

  saw(text: string): void {
    this.lastByteAt = this.clock.now();
    this.tail = (this.tail + text).slice(-4);
    if (this.midEvent()) this.timer ??= this.clock.setTimeout(() => this.check(), this.timeoutMs);
  }

  stop(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private midEvent(): boolean {
    const ends = this.tail.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
    // A blank line, or a stream that so far is nothing but line ends.
    return ends !== "" && !/(^|\n)\n$/.test(ends);
  }

  /** One timer per quiet spell, re-armed for what is left of it rather than reset on every chunk. */
  private check(): void {
    this.timer = undefined;
    if (!this.midEvent()) return;
    const quietFor = this.clock.now() - this.lastByteAt;
    if (quietFor >= this.timeoutMs) return this.onStall();
    this.timer = this.clock.setTimeout(() => this.check(), this.timeoutMs - quietFor);
  }
}
