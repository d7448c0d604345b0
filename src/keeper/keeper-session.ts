import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import type { ServerLogEntry } from "../mcp/index.ts";
import { McpError, TextLineSplitter } from "../mcp/light-index.ts";
import { declinedElicitation, defaultsOrDecline } from "../terminal/declined-elicitation.ts";
import type { Clock, ClockTimer } from "../system/clock.ts";
import { KEEPER_HEARTBEAT_MS, type KeeperAnswer, type KeeperMessage, type KeeperRequest, type WireError } from "./keeper-protocol.ts";
import { parseKeeperRequest } from "./keeper-requests.ts";
import type { WarmConnections } from "./warm-connections.ts";

/** What a session needs of the keeper it belongs to. */
interface SessionHost {
  readonly token: string;
  readonly warm: WarmConnections;
  /** The longest line a command may send (MAX_KEEPER_LINE_BYTES). */
  readonly maxLineBytes: number;
  /** Times the heartbeat. */
  readonly clock: Clock;
  /** The `ok` of `hello` and of `status` (status adds the connections). */
  identity(): { version: string; pid: number; startedAt: number };
  /** `stop`: closes every server and exits (after the answer is written). */
  stop(): void;
}

type Request<Op extends KeeperRequest["op"]> = Extract<KeeperRequest, { op: Op }>;

/**
 * One command's socket: `hello` first (with the token, or the socket is closed), then requests
 * handled side by side, each answered with its events and one final answer. The servers a `call`
 * may name are those of this socket's last `connect`. Closing the socket cancels its calls; the
 * servers stay warm.
 */
export class KeeperSession {
  private greeted = false;
  /** Closed for a broken rule: nothing more it sent is read. */
  private refused = false;
  /** The server names of the last `connect`, each with its connection's fingerprint. */
  private servers = new Map<string, string>();
  private readonly calls = new Map<number, AbortController>();
  private readonly splitter = new TextLineSplitter();
  /** Connects and calls running: while there are any, a heartbeat goes out. */
  private busy = 0;
  private heartbeat: ClockTimer | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly host: SessionHost,
    onClosed: () => void,
  ) {
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      for (const call of this.calls.values()) call.abort();
      this.calls.clear();
      host.warm.letGo(this);
      this.stopHeartbeat();
      onClosed();
    });
  }

  /** Ends the socket once what was written is sent (the keeper is stopping). */
  end(): void {
    this.socket.end();
  }

  private read(chunk: Buffer): void {
    if (this.refused) return;
    const max = this.host.maxLineBytes;
    this.splitter.push(chunk, (line) => {
      if (this.refused) return;
      if (line.length > max) return this.refuse(0, `a request line is longer than ${max} bytes`);
      if (line.trim() !== "") void this.handle(line);
    });
    if (this.splitter.pendingLength > max) this.refuse(0, `a request line is longer than ${max} bytes`);
  }

  private async handle(line: string): Promise<void> {
    const parsed = parseKeeperRequest(line);
    if (!parsed.ok) return parsed.id === 0 || !this.greeted ? this.refuse(parsed.id, parsed.reason) : this.fail(parsed.id, { message: parsed.reason, keeper: true });
    const { request } = parsed;
    if (request.op === "hello") return this.hello(request);
    if (!this.greeted) return this.refuse(request.id, "say hello first");
    const long = request.op === "connect" || request.op === "call";
    if (long && this.busy++ === 0) this.beat();
    try {
      switch (request.op) {
        case "connect":
          return await this.connect(request);
        case "call":
          return await this.call(request);
        case "cancel":
          this.calls.get(request.target)?.abort();
          return this.send({ id: request.id, ok: {} });
        case "status":
          return this.send({ id: request.id, ok: { ...this.host.identity(), connections: this.host.warm.info() } });
        case "close":
          return this.send({ id: request.id, ok: { closed: this.host.warm.closeServer(request.server) } });
        case "stop":
          this.send({ id: request.id, ok: {} });
          return this.host.stop();
      }
    } catch (error) {
      this.fail(request.id, wireError(error));
    } finally {
      if (long && --this.busy === 0) this.stopHeartbeat();
    }
  }

  /** An `alive` every KEEPER_HEARTBEAT_MS while busy (see KEEPER_SILENCE_MS). */
  private beat(): void {
    this.heartbeat = this.host.clock.setTimeout(() => {
      this.send({ id: 0, event: "alive" });
      this.beat();
    }, KEEPER_HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) this.host.clock.clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  private hello(request: Request<"hello">): void {
    if (!sameToken(request.token, this.host.token)) return this.refuse(request.id, "wrong token: this keeper was started by another cat-code; run the command again");
    this.greeted = true;
    // Another protocol or version is answered all the same: the command sees it and stops this keeper.
    this.send({ id: request.id, ok: this.host.identity() });
  }

  private async connect(request: Request<"connect">): Promise<void> {
    const listener = {
      socket: this,
      onLog: (entry: ServerLogEntry) => this.send({ id: request.id, event: "log", entry }),
      onWarning: (message: string) => this.send({ id: request.id, event: "warning", message }),
    };
    const connected = await this.host.warm.connect(request.servers, request.roots, listener, request.elicitation ?? true, request.callFollows ?? false);
    this.servers = new Map(request.servers.map((server, index) => [server.entry.name, connected[index]!.fingerprint]));
    this.send({ id: request.id, ok: { statuses: connected.map((c) => c.status) } });
  }

  private async call(request: Request<"call">): Promise<void> {
    const fingerprint = this.servers.get(request.server);
    if (fingerprint === undefined) {
      return this.fail(request.id, { message: `server '${request.server}' was not connected on this socket; send connect first`, keeper: true });
    }
    const controller = new AbortController();
    this.calls.set(request.id, controller);
    const note = (line: string) => this.send({ id: request.id, event: "note", line });
    try {
      const result = await this.host.warm.call(fingerprint, request.tool, request.arguments, {
        socket: this,
        signal: controller.signal,
        elicitation: request.elicitation === "accept-defaults" ? defaultsOrDecline(note) : declinedElicitation(note),
        onProgress: (progress) => this.send({ id: request.id, event: "progress", progress }),
        onLog: (entry) => this.send({ id: request.id, event: "log", entry }),
      });
      this.send({ id: request.id, ok: { result } });
    } finally {
      this.calls.delete(request.id);
    }
  }

  private fail(id: number, error: WireError): void {
    this.send({ id, error } satisfies KeeperAnswer);
  }

  /** A request this socket may not make: answered, then the socket is closed. */
  private refuse(id: number, message: string): void {
    if (this.refused) return;
    this.fail(id, { message, keeper: true });
    this.refused = true;
    this.socket.end();
  }

  private send(message: KeeperMessage): void {
    if (!this.socket.writable) return;
    this.socket.write(`${JSON.stringify(message)}\n`);
  }
}

/** What a command needs to rebuild the error: an McpError's code and flags, anything else as the keeper's own. */
export function wireError(error: unknown): WireError {
  if (error instanceof McpError) {
    const wire: WireError = { message: error.message };
    if (error.code !== undefined) wire.code = error.code;
    if (error.needsAuth) wire.needsAuth = true;
    if (error.notOffered) wire.notOffered = true;
    return wire;
  }
  return { message: `the keeper failed: ${(error as Error)?.message ?? String(error)}`, keeper: true };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
