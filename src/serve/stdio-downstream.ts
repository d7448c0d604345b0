import { log } from "../log.ts";
import { McpError, parseMessage, TextLineSplitter } from "../mcp/light-index.ts";
import type { Transport } from "../mcp/index.ts";
import type { JsonRpcMessage } from "../mcp/protocol.ts";

/**
 * The longest line a client may send `mcp serve` over stdio. Tool arguments are small; a file
 * written through `write_file` is the largest real one. Past it the client is cut off, so memory
 * stays bounded whatever it sends.
 */
export const MAX_CLIENT_LINE_CHARS = 16 * 2 ** 20;

/** Where the lines come from and go to: this process's stdin and stdout, or a test's streams. */
export interface StdioStreams {
  input: ReadableStream<Uint8Array>;
  /** Writes one chunk; resolves once it is handed to the stream (backpressure). */
  write(text: string): Promise<void>;
}

/**
 * The client's side of `mcp serve` over stdio: newline-delimited JSON-RPC read from stdin, written
 * to stdout (nothing else may go there: logs go to stderr). A line that is not JSON is skipped with
 * a debug line; one longer than MAX_CLIENT_LINE_CHARS ends the connection. The end of stdin is the
 * client going away (`onClose`).
 */
export class StdioDownstream implements Transport {
  onMessage?: (value: unknown) => void;
  onClose?: (error: Error) => void;
  readonly description = "stdio: the client of mcp serve";
  private ended = false;
  /** Requests of the client not answered yet, by id: once stdin ends, they are answered before the end. */
  private readonly unanswered = new Set<unknown>();
  private inputEnded = false;

  constructor(
    private readonly streams: StdioStreams,
    private readonly maxLineChars = MAX_CLIENT_LINE_CHARS,
  ) {}

  async start(): Promise<void> {
    void this.read();
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.ended) throw McpError.closed("the client of mcp serve went away");
    await this.streams.write(`${JSON.stringify(message)}\n`);
    if ("id" in message && !("method" in message)) {
      this.unanswered.delete(message.id);
      if (this.inputEnded && this.unanswered.size === 0) this.end(McpError.closed("the client of mcp serve closed its end (stdin)"));
    }
  }

  async close(): Promise<void> {
    this.end(McpError.closed("mcp serve closed the connection"));
  }

  private async read(): Promise<void> {
    const splitter = new TextLineSplitter();
    const onLine = (line: string) => this.line(line);
    try {
      for await (const chunk of this.streams.input) {
        if (this.ended) return;
        splitter.push(chunk, onLine);
        if (splitter.pendingLength > this.maxLineChars) {
          log.warn(`the client of mcp serve sent a line longer than ${this.maxLineChars} characters; the connection was closed`);
          return this.end(McpError.closed("the client sent a line that is too long"));
        }
      }
      splitter.finish(onLine);
    } catch (error) {
      log.debug(`mcp serve: reading stdin failed: ${(error as Error).message}`);
    }
    // A client that writes its requests and closes stdin (a script) still gets every answer.
    this.inputEnded = true;
    if (this.unanswered.size === 0) this.end(McpError.closed("the client of mcp serve closed its end (stdin)"));
  }

  private line(text: string): void {
    if (this.ended || text.trim() === "") return;
    if (text.length > this.maxLineChars) {
      log.warn(`the client of mcp serve sent a line longer than ${this.maxLineChars} characters; it was skipped`);
      return;
    }
    let value: unknown;
    try {
      value = parseMessage(text);
    } catch {
      log.debug(`mcp serve: skipped a line that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    // A batch is its items one by one; JSON-RPC batches are gone from MCP since 2025-06-18.
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isRequest(item)) this.unanswered.add(item.id);
      this.onMessage?.(item);
    }
  }

  private end(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.onClose?.(error);
  }
}

function isRequest(value: unknown): value is { id: string | number; method: string } {
  if (typeof value !== "object" || value === null) return false;
  const { id, method } = value as Record<string, unknown>;
  return typeof method === "string" && (typeof id === "string" || typeof id === "number");
}
