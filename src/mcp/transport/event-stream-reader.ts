import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { httpStatusError } from "./http-errors.ts";
import { isEventStream, mediaType } from "./http-session.ts";
import { parseMessage } from "./parse-message.ts";
import { SseParser } from "./sse-parser.ts";

export interface ReadUntilAnsweredOptions {
  url: string;
  /** The method whose answer is awaited, for error messages. */
  method: string;
  /** Aborted when the request is given up or the transport closes: stops reading and waiting. */
  signal: AbortSignal;
  /** Handles one JSON-RPC message from the stream; returns true once it settled the awaited request. */
  onMessage: (value: unknown) => boolean;
  /** Re-opens the stream with `GET` + `Last-Event-ID`. */
  resume: (lastEventId: string) => Promise<Response>;
  /** The wait before resuming when the server sent no `retry`. */
  defaultRetryMs: number;
  /** Resumptions in a row that may bring nothing before giving up. */
  maxResumeAttempts: number;
}

/** Where a stream stands: carried over from one connection of it to the next. */
export interface StreamPosition {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

export interface StreamOutcome extends StreamPosition {
  answered: boolean;
  /** Whether any message arrived: a stream that moves is not failing, however often it drops. */
  progressed: boolean;
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
    await sleep(retryMs ?? options.defaultRetryMs, signal);
    body = null;
    let response: Response;
    try {
      response = await options.resume(lastEventId);
    } catch (error) {
      // A connection that fails now may work on the next try; an abort does not retry.
      signal.throwIfAborted();
      lastFailure = (error as Error).message;
      continue;
    }
    if (!response.ok) throw await httpStatusError(url, response);
    if (!isEventStream(response)) {
      await response.body?.cancel();
      throw new McpError(undefined, `resuming the stream for ${method}, ${url} answered ${mediaType(response) || "no content type"} instead of an event stream`);
    }
    body = response.body;
  }
}

/**
 * Reads one connection of a stream until it ends or `onMessage` says the awaited response came
 * (the standalone GET stream awaits none, so it reads to the end). Rejects only when `signal` aborts.
 */
export async function readStream(
  body: ReadableStream<Uint8Array>,
  from: StreamPosition,
  options: Pick<ReadUntilAnsweredOptions, "url" | "method" | "signal" | "onMessage">,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { answered: false, progressed: false, ...from };
  const parser = new SseParser(({ type, data }) => {
    // An empty data field is a priming event: it only brings an id to resume from.
    if (outcome.answered || data === "") return;
    if (type !== "message") return log.debug(`http: ${options.url}: skipped an SSE event of type ${type}`);
    outcome.progressed = true;
    let value: unknown;
    try {
      value = parseMessage(data);
    } catch {
      return log.debug(`http: ${options.url}: skipped an SSE event that is not JSON: ${data.slice(0, 200)}`);
    }
    if (options.onMessage(value)) outcome.answered = true;
  });
  parser.lastEventId = from.lastEventId;
  parser.retryMs = from.retryMs;
  const reader = body.getReader();
  try {
    while (!outcome.answered) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
  } catch (error) {
    options.signal.throwIfAborted();
    // A dropped connection is what resumption is for.
    log.debug(`http: ${options.url}: the stream for ${options.method} broke: ${(error as Error).message}`);
  } finally {
    // The stream's job ends with its response; stop reading so the connection is released.
    reader.cancel().catch(() => {});
  }
  parser.finish();
  return { ...outcome, lastEventId: parser.lastEventId, retryMs: parser.retryMs };
}

/** Waits `ms`, or less if the signal aborts; leaves no timer behind either way. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
