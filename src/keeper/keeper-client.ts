import type { Socket } from "bun";
import * as v from "valibot";
import { JsonRpcConnection, McpError } from "../mcp/light-index.ts";
import type { JsonRpcNotification } from "../mcp/protocol.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import { describeIssue } from "../system/schema-issue.ts";
import { errorFromKeeper } from "./keeper-errors.ts";
import { KEEPER_EVENT_METHOD, KEEPER_SILENCE_MS, KeeperEvent, KeeperResult, MAX_KEEPER_LINE_BYTES, type KeeperOp, type KeeperRequest } from "./keeper-protocol.ts";
import { KeeperSocketTransport } from "./keeper-socket-transport.ts";

export interface RequestOptions {
  /** Progress, log lines and notes of this request, as they come, and the keeper's `alive` while it waits. */
  onEvent?: (event: KeeperEvent) => void;
  /** Aborting rejects the request at once and tells the keeper (`notifications/cancelled`). */
  signal?: AbortSignal;
}

/**
 * One connection to the keeper's socket: a `JsonRpcConnection` (ids, pending requests, cancellation,
 * errors with codes) over a KeeperSocketTransport, each answer checked against its schema, events
 * routed to their request's callback, and a keeper that falls silent given up. Bun's own socket,
 * not node:net: its first connection in a new process answers in under 1 ms, node:net's in ~7 ms
 * (measured against a running keeper: connect, hello, first byte of the answer), and a warm command
 * makes one. Every failure is an `McpError`: the server's, rebuilt as it was, or the keeper's own
 * without a code.
 */
export class KeeperClient {
  private readonly transport: KeeperSocketTransport;
  private readonly connection: JsonRpcConnection;
  /** Each pending request's event callback, by id. */
  private readonly listeners = new Map<number, (event: KeeperEvent) => void>();

  /** What the socket did not take yet (a large request, a slow reader): sent on `drain`. */
  private unsent: Uint8Array[] = [];
  private socket!: Socket<undefined>;
  /** When the keeper was last heard from, and the check that gives up on a silent one. */
  private lastHeard: number;
  private watchdog: ClockTimer | undefined;
  /** The keeper stopped answering mid-request: alive maybe, and what it was sent may still run. */
  private silent = false;

  private constructor(
    maxLineBytes: number,
    private readonly clock: Clock,
    private readonly silenceMs: number,
  ) {
    this.lastHeard = clock.now();
    this.transport = new KeeperSocketTransport(
      { write: (line) => this.write(line), end: () => this.socket.terminate() },
      { peer: "the connection keeper", maxLineBytes },
    );
    this.connection = new JsonRpcConnection(this.transport);
    this.connection.onNotification = (notification) => this.event(notification);
    this.connection.onClose = () => this.stopWatching();
    // The keeper answers a line it will not take (too long, not JSON-RPC) with an error of id null,
    // then ends the socket: its reason, not the bare close, is why every pending request fails.
    this.connection.onStrayAnswer = (response) => {
      if (response.id === null && "error" in response) this.transport.fail(`the connection keeper refused the connection: ${response.error.message}`);
    };
  }

  /** Connects to the socket; rejects when nothing listens there (ENOENT, ECONNREFUSED) or nothing accepts within `timeoutMs`. */
  static async open(socketPath: string, options: { timeoutMs: number; clock?: Clock; maxLineBytes?: number; silenceMs?: number }): Promise<KeeperClient> {
    const clock = options.clock ?? systemClock;
    const client = new KeeperClient(options.maxLineBytes ?? MAX_KEEPER_LINE_BYTES, clock, options.silenceMs ?? KEEPER_SILENCE_MS);
    let timer: ReturnType<Clock["setTimeout"]> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => reject(new Error(`no answer on ${socketPath} within ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    const connecting = Bun.connect({
      unix: socketPath,
      socket: {
        data: (_socket, chunk) => client.receive(chunk),
        drain: () => client.flush(),
        error: (_socket, error) => client.transport.ended(`the connection keeper's socket failed: ${error.message}`),
        close: () => client.transport.ended("the connection keeper closed the connection"),
      },
    });
    try {
      client.socket = await Promise.race([connecting, timeout]);
      return client;
    } catch (error) {
      void connecting.then((socket) => socket.terminate(), () => {});
      throw error;
    } finally {
      if (timer) clock.clearTimeout(timer);
    }
  }

  get closed(): boolean {
    return this.transport.closed;
  }

  /** Given up for silence (see watch): unlike a keeper that ended or refused the socket, it may still act on what it read. */
  get wentSilent(): boolean {
    return this.silent;
  }

  /** Sends one request (`op` is the method, the rest its params); resolves with its checked answer, rejects with an McpError. */
  async request<Op extends KeeperOp>(body: Extract<KeeperRequest, { op: Op }>, options: RequestOptions = {}): Promise<KeeperResult<Op>> {
    const { op, ...params } = body;
    const { onEvent } = options;
    let id: number | undefined;
    const registration = { registered: (registered: number) => (id = registered) };
    const answered = this.connection.request(op, params, { signal: options.signal, registration });
    if (onEvent && id !== undefined) this.listeners.set(id, onEvent);
    // The silence counts from the request on: a socket quiet between two requests is not a hung keeper.
    this.lastHeard = this.clock.now();
    this.watch();
    let result: unknown;
    try {
      result = await answered;
    } catch (error) {
      throw errorFromKeeper(error);
    } finally {
      if (id !== undefined) this.listeners.delete(id);
    }
    const parsed = v.safeParse(KeeperResult[op], result);
    if (!parsed.success) throw new McpError(undefined, `the connection keeper answered ${op} with something else: ${describeIssue(parsed.issues[0])}`);
    return parsed.output as KeeperResult<Op>;
  }

  /**
   * While an answer is awaited, a keeper that says nothing at all (no answer, no event, no `alive`)
   * for `silenceMs` has hung: every pending request fails, and the socket is closed.
   */
  private watch(): void {
    if (this.watchdog || this.connection.pendingCount === 0) return;
    const quietFor = this.clock.now() - this.lastHeard;
    this.watchdog = this.clock.setTimeout(() => {
      this.watchdog = undefined;
      if (this.connection.pendingCount === 0 || this.closed) return;
      if (this.clock.now() - this.lastHeard < this.silenceMs) return this.watch();
      this.silent = true;
      this.transport.fail(`the connection keeper stopped answering (nothing for ${this.silenceMs / 1000} s); stop it with: cat-code mcp keeper stop`);
    }, Math.max(0, this.silenceMs - Math.max(0, quietFor)));
    // The watchdog alone must not keep the command alive.
    this.watchdog.unref();
  }

  private stopWatching(): void {
    if (this.watchdog) this.clock.clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  /** Closes the socket: the keeper cancels this command's calls still running; its servers stay warm. */
  close(): void {
    this.stopWatching();
    void this.connection.close();
  }

  private event(notification: JsonRpcNotification): void {
    if (notification.method !== KEEPER_EVENT_METHOD) return;
    const parsed = v.safeParse(KeeperEvent, notification.params);
    if (!parsed.success) return;
    const event = parsed.output;
    // The keeper's heartbeat belongs to no one request: every waiting one hears it (most ignore it).
    if (!("requestId" in event)) for (const listener of this.listeners.values()) listener(event);
    else this.listeners.get(event.requestId)?.(event);
  }

  private write(line: string): void {
    this.unsent.push(new TextEncoder().encode(line));
    if (this.unsent.length === 1) this.flush();
  }

  /** Writes what the socket takes now; the rest waits for `drain`. */
  private flush(): void {
    while (this.unsent.length > 0 && !this.closed) {
      const next = this.unsent[0]!;
      const written = this.socket.write(next);
      if (written < next.length) {
        this.unsent[0] = next.subarray(Math.max(0, written));
        return;
      }
      this.unsent.shift();
    }
  }

  private receive(chunk: Uint8Array): void {
    this.lastHeard = this.clock.now();
    this.transport.receive(chunk);
  }
}
