import type { Socket } from "bun";
import { TextLineSplitter } from "../mcp/light-index.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import type { KeeperAnswer, KeeperEvent, KeeperMessage, KeeperRequest, WireError } from "./keeper-protocol.ts";
import { KEEPER_SILENCE_MS, MAX_KEEPER_LINE_BYTES } from "./keeper-protocol.ts";

/** A request as the caller writes it: the client numbers it. */
type KeeperRequestBody = KeeperRequest extends infer R ? (R extends KeeperRequest ? Omit<R, "id"> : never) : never;

type Ok = Extract<KeeperAnswer, { ok: unknown }>["ok"];

/** The `ok` of each kind of answer, by the request's `op` (keeper-protocol.ts pairs them). */
interface OkByOp {
  hello: Extract<Ok, { startedAt: number }>;
  connect: Extract<Ok, { statuses: unknown }>;
  call: Extract<Ok, { result: unknown }>;
  status: Extract<Ok, { connections: unknown }>;
  close: Extract<Ok, { closed: unknown }>;
  cancel: Record<string, never>;
  stop: Record<string, never>;
}
type OkOf<Op extends KeeperRequest["op"]> = OkByOp[Op];

export interface RequestOptions {
  /** Progress, log lines and notes of this request, as they come, and the keeper's `alive` while it waits. */
  onEvent?: (event: KeeperEvent) => void;
  /** Aborting sends `cancel` for the request; its answer still settles the promise. */
  signal?: AbortSignal;
}

/** The keeper answered with an error, or went away before it answered. */
export class KeeperRequestError extends Error {
  override readonly name = "KeeperRequestError";
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

interface Pending {
  resolve: (ok: unknown) => void;
  reject: (error: KeeperRequestError) => void;
  onEvent?: (event: KeeperEvent) => void;
}

/**
 * One connection to the keeper's socket: requests numbered from 1, one JSON object per line each
 * way (a line past MAX_KEEPER_LINE_BYTES ends the connection), events routed to their request's
 * callback, and every pending request rejected when the socket closes. Bun's own socket, not
 * node:net: its first connection in a new process answers in under 1 ms, node:net's in ~7 ms (measured
 * against a running keeper: connect, hello, first byte of the answer), and a warm command makes one.
 */
export class KeeperClient {
  private readonly pending = new Map<number, Pending>();
  private readonly lines = new TextLineSplitter();
  private nextId = 1;
  private closedWith: string | undefined;

  /** What the socket did not take yet (a large request, a slow reader): sent on `drain`. */
  private unsent: Uint8Array[] = [];
  private socket!: Socket<undefined>;
  /** When the keeper was last heard from, and the check that gives up on a silent one. */
  private lastHeard: number;
  private watchdog: ClockTimer | undefined;

  private constructor(
    private readonly maxLineBytes: number,
    private readonly clock: Clock,
    private readonly silenceMs: number,
  ) {
    this.lastHeard = clock.now();
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
        error: (_socket, error) => client.fail(`the connection keeper's socket failed: ${error.message}`),
        close: () => client.fail("the connection keeper closed the connection"),
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
    return this.closedWith !== undefined;
  }

  /** Sends one request; resolves with its `ok`, rejects with a KeeperRequestError. */
  request<Op extends KeeperRequest["op"]>(body: Extract<KeeperRequestBody, { op: Op }>, options: RequestOptions = {}): Promise<OkOf<Op>> {
    if (this.closedWith !== undefined) return Promise.reject(new KeeperRequestError({ message: this.closedWith, keeper: true }));
    const id = this.nextId++;
    const answered = new Promise<OkOf<Op>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (ok: unknown) => void, reject, onEvent: options.onEvent });
    });
    const { signal } = options;
    if (signal) {
      const cancel = () => this.pending.has(id) && this.send({ op: "cancel", target: id });
      if (signal.aborted) queueMicrotask(cancel);
      else signal.addEventListener("abort", cancel, { once: true });
      void answered.catch(() => {}).finally(() => signal.removeEventListener("abort", cancel));
    }
    this.write({ ...body, id } as KeeperRequest);
    // The silence counts from the request on: a socket quiet between two requests is not a hung keeper.
    this.lastHeard = this.clock.now();
    this.watch();
    return answered;
  }

  /**
   * While an answer is awaited, a keeper that says nothing at all (no answer, no event, no `alive`)
   * for `silenceMs` has hung: every pending request fails, and the socket is closed.
   */
  private watch(): void {
    if (this.watchdog || this.pending.size === 0) return;
    const quietFor = this.clock.now() - this.lastHeard;
    this.watchdog = this.clock.setTimeout(() => {
      this.watchdog = undefined;
      if (this.pending.size === 0 || this.closedWith !== undefined) return;
      if (this.clock.now() - this.lastHeard < this.silenceMs) return this.watch();
      this.fail(`the connection keeper stopped answering (nothing for ${this.silenceMs / 1000} s); stop it with: cat-code mcp keeper stop`);
      this.socket.terminate();
    }, Math.max(0, this.silenceMs - Math.max(0, quietFor)));
    // The watchdog alone must not keep the command alive.
    this.watchdog.unref();
  }

  /** Closes the socket: the keeper cancels this command's calls still running; its servers stay warm. */
  close(): void {
    this.fail("closed");
    this.socket.terminate();
  }

  private send(body: KeeperRequestBody): void {
    this.write({ ...body, id: this.nextId++ } as KeeperRequest);
  }

  private write(request: KeeperRequest): void {
    if (this.closedWith !== undefined) return;
    this.unsent.push(new TextEncoder().encode(`${JSON.stringify(request)}\n`));
    if (this.unsent.length === 1) this.flush();
  }

  /** Writes what the socket takes now; the rest waits for `drain`. */
  private flush(): void {
    while (this.unsent.length > 0 && this.closedWith === undefined) {
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
    this.lines.push(chunk, (line) => this.dispatch(line));
    // Characters are at most bytes: a line held this long is past the limit whatever it holds.
    if (this.lines.pendingLength > this.maxLineBytes) {
      this.fail(`the connection keeper sent a line longer than ${this.maxLineBytes} bytes`);
      this.socket.terminate();
    }
  }

  private dispatch(line: string): void {
    if (line.trim() === "") return;
    let message: KeeperMessage;
    try {
      message = JSON.parse(line) as KeeperMessage;
    } catch {
      this.fail("the connection keeper sent a line that is not JSON");
      this.socket.terminate();
      return;
    }
    // The keeper's heartbeat belongs to no one request: every waiting one hears it (most ignore it).
    if ("event" in message && message.event === "alive") {
      for (const waiting of this.pending.values()) waiting.onEvent?.(message);
      return;
    }
    const pending = typeof message?.id === "number" ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    if ("event" in message) {
      pending.onEvent?.(message);
      return;
    }
    this.pending.delete(message.id);
    if ("ok" in message && message.ok !== null && typeof message.ok === "object") pending.resolve(message.ok);
    else if ("error" in message && message.error !== null && typeof message.error === "object") pending.reject(new KeeperRequestError(wireError(message.error)));
    else pending.reject(new KeeperRequestError({ message: "the connection keeper sent an answer without ok or error", keeper: true }));
  }

  private fail(reason: string): void {
    this.closedWith ??= reason;
    if (this.watchdog) this.clock.clearTimeout(this.watchdog);
    this.watchdog = undefined;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new KeeperRequestError({ message: reason, keeper: true }));
    }
  }
}

/** Only the fields of a WireError, of the right types: the rest of what a peer sends is dropped. */
function wireError(error: WireError): WireError {
  return {
    message: typeof error.message === "string" ? error.message : "the connection keeper sent an error without a message",
    ...(typeof error.code === "number" ? { code: error.code } : {}),
    ...(error.needsAuth === true ? { needsAuth: true } : {}),
    ...(error.notOffered === true ? { notOffered: true } : {}),
    ...(error.keeper === true ? { keeper: true } : {}),
  };
}
