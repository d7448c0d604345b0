import { connect, type Socket } from "node:net";
import { TextLineSplitter } from "../mcp/transport/text-line-splitter.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import type { KeeperAnswer, KeeperEvent, KeeperMessage, KeeperRequest, WireError } from "./keeper-protocol.ts";
import { MAX_KEEPER_LINE_BYTES } from "./keeper-protocol.ts";

/** A request as the caller writes it: the client numbers it. */
export type KeeperRequestBody = KeeperRequest extends infer R ? (R extends KeeperRequest ? Omit<R, "id"> : never) : never;

type Ok = Extract<KeeperAnswer, { ok: unknown }>["ok"];

/** The `ok` of each kind of answer, by the request's `op` (keeper-protocol.ts pairs them). */
interface OkByOp {
  hello: Extract<Ok, { startedAt: number }>;
  connect: Extract<Ok, { statuses: unknown }>;
  call: Extract<Ok, { result: unknown }>;
  status: Extract<Ok, { connections: unknown }>;
  cancel: Record<string, never>;
  stop: Record<string, never>;
}
type OkOf<Op extends KeeperRequest["op"]> = OkByOp[Op];

export interface RequestOptions {
  /** Progress, log lines and notes of this request, as they come. */
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
 * callback, and every pending request rejected when the socket closes.
 */
export class KeeperClient {
  private readonly pending = new Map<number, Pending>();
  private readonly lines = new TextLineSplitter();
  private nextId = 1;
  private closedWith: string | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", (error) => this.fail(`the connection keeper's socket failed: ${error.message}`));
    socket.on("close", () => this.fail("the connection keeper closed the connection"));
  }

  /** Connects to the socket; rejects when nothing listens there (or nothing accepts within `timeoutMs`). */
  static open(socketPath: string, options: { timeoutMs: number; clock?: Clock }): Promise<KeeperClient> {
    const clock = options.clock ?? systemClock;
    return new Promise((resolve, reject) => {
      const socket = connect({ path: socketPath });
      const timer = clock.setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer on ${socketPath} within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      socket.once("error", (error) => {
        clock.clearTimeout(timer);
        reject(error);
      });
      socket.once("connect", () => {
        clock.clearTimeout(timer);
        socket.removeAllListeners("error");
        resolve(new KeeperClient(socket));
      });
    });
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
    return answered;
  }

  /** Closes the socket: the keeper cancels this command's calls still running; its servers stay warm. */
  close(): void {
    this.socket.destroy();
    this.fail("closed");
  }

  private send(body: KeeperRequestBody): void {
    this.write({ ...body, id: this.nextId++ } as KeeperRequest);
  }

  private write(request: KeeperRequest): void {
    if (this.closedWith === undefined) this.socket.write(`${JSON.stringify(request)}\n`);
  }

  private receive(chunk: Buffer): void {
    this.lines.push(chunk, (line) => this.dispatch(line));
    // Characters are at most bytes: a line held this long is past the limit whatever it holds.
    if (this.lines.pendingLength > MAX_KEEPER_LINE_BYTES) {
      this.fail(`the connection keeper sent a line longer than ${MAX_KEEPER_LINE_BYTES} bytes`);
      this.socket.destroy();
    }
  }

  private dispatch(line: string): void {
    if (line.trim() === "") return;
    let message: KeeperMessage;
    try {
      message = JSON.parse(line) as KeeperMessage;
    } catch {
      this.fail("the connection keeper sent a line that is not JSON");
      this.socket.destroy();
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
