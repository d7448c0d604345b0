import type { Transport } from "../mcp/index.ts";
import { McpError, parseMessage, TextLineSplitter } from "../mcp/light-index.ts";
import { classifyMessage, type JsonRpcMessage } from "../mcp/protocol.ts";

/** The socket under a KeeperSocketTransport: whoever owns it writes what it is given and ends it. */
export interface SocketEnd {
  /** One message as a line; the message itself, for an owner that acts once it is written. */
  write(line: string, message: JsonRpcMessage): void;
  /** Ends the socket (what was written is still sent, as far as the socket can). */
  end(): void;
}

export interface KeeperSocketTransportOptions {
  /** Who is at the other end, for the messages: "the connection keeper", "the command". */
  peer: string;
  /** A line longer than this (MAX_KEEPER_LINE_BYTES) is refused before its newline comes. */
  maxLineBytes: number;
  /**
   * What is done with a line that breaks the framing (too long, not JSON); default: the transport
   * ends with that reason. The keeper answers it first.
   */
  onBroken?: (reason: string) => void;
  /**
   * JSON that is not JSON-RPC breaks the framing too (the keeper's end: a command of an older
   * cat-code, on the line protocol before it, sees the socket close now, not when its hello times out).
   */
  jsonRpcOnly?: boolean;
}

/**
 * The keeper's socket as a rpc `Transport`: one JSON-RPC message per line each way, each line
 * bounded. Both ends use it under a `JsonRpcConnection`; the owner of the socket feeds it what
 * arrives (`receive`) and tells it when the socket went (`ended`).
 */
export class KeeperSocketTransport implements Transport {
  onMessage?: (value: unknown) => void;
  onClose?: (error: Error) => void;
  readonly description: string;
  private readonly lines = new TextLineSplitter();
  private endedWith: Error | undefined;

  constructor(
    private readonly socket: SocketEnd,
    private readonly options: KeeperSocketTransportOptions,
  ) {
    this.description = `keeper socket (${options.peer})`;
  }

  get closed(): boolean {
    return this.endedWith !== undefined;
  }

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.endedWith) throw this.endedWith;
    this.socket.write(`${JSON.stringify(message)}\n`, message);
  }

  async close(): Promise<void> {
    this.fail("closed");
  }

  /** Bytes from the socket: each whole line is one message. */
  receive(chunk: Uint8Array): void {
    if (this.endedWith) return;
    const max = this.options.maxLineBytes;
    this.lines.push(chunk, (line) => {
      if (this.endedWith || line.trim() === "") return;
      if (line.length > max) return this.broken(`${this.options.peer} sent a line longer than ${max} bytes`);
      let value: unknown;
      try {
        value = parseMessage(line);
      } catch {
        return this.broken(`${this.options.peer} sent a line that is not JSON`);
      }
      const invalid = this.options.jsonRpcOnly ? classifyMessage(value) : undefined;
      if (invalid?.kind === "invalid") return this.broken(`${this.options.peer} sent a message that is not JSON-RPC (${invalid.reason})`);
      this.onMessage?.(value);
    });
    // Characters are at most bytes: a line held this long is past the limit whatever it holds.
    if (!this.endedWith && this.lines.pendingLength > max) this.broken(`${this.options.peer} sent a line longer than ${max} bytes`);
  }

  /** The socket closed or failed by itself: what is pending fails with `reason`. */
  ended(reason: string): void {
    if (this.endedWith) return;
    this.endedWith = new McpError(undefined, reason);
    this.onClose?.(this.endedWith);
  }

  /** Gives the socket up with `reason`: it is ended, and what is pending fails with the reason. */
  fail(reason: string): void {
    if (this.endedWith) return;
    this.ended(reason);
    this.socket.end();
  }

  private broken(reason: string): void {
    if (this.options.onBroken) this.options.onBroken(reason);
    else this.fail(reason);
  }
}
