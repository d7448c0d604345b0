import { McpError } from "../mcp-error.ts";
import type { JsonRpcResponse, RequestId } from "../protocol.ts";

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  call: AbortSignal | undefined;
}

/**
 * The one place that correlates answers with requests. Ids are numbers we allocate; an entry is
 * registered before its request is written, so an answer can never arrive before its waiter.
 */
export class PendingRequests {
  /**
   * `onAbandon` hears of each request given up by an abort while still pending, so the connection
   * can tell the server with `notifications/cancelled`.
   */
  constructor(private readonly onAbandon?: (id: number, method: string, reason: string) => void) {}

  private nextId = 0;
  private readonly pending = new Map<RequestId, Pending>();
  /**
   * The requests pending under each signal. Many requests may share one signal (a caller's, over
   * all its calls), so a signal gets one abort listener, added the first time it is
   * seen and left in place: adding and removing a listener per request cost more than the rest of
   * a call. A signal that is dropped takes its entry with it.
   */
  private readonly watched = new WeakMap<AbortSignal, Set<number>>();

  get size(): number {
    return this.pending.size;
  }

  /**
   * Allocates an id and a promise for its answer. An abort rejects at once with the signal's reason.
   * `call`: the caller's signal of the call the request is sent for (see RequestOptions.call).
   */
  register(method: string, signal?: AbortSignal, call?: AbortSignal): { id: number; answer: Promise<unknown> } {
    const id = this.nextId++;
    if (signal?.aborted) return { id, answer: Promise.reject(abortReason(signal, method)) };
    let entry!: Pending;
    const answer = new Promise<unknown>((resolve, reject) => {
      entry = { method, resolve, reject, signal, call };
    });
    this.pending.set(id, entry);
    if (signal) this.watch(signal, id);
    return { id, answer };
  }

  /** Settles the request a response answers. Returns false for an id we are not waiting on. */
  settle(response: JsonRpcResponse): boolean {
    const id = this.lookupKey(response.id);
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (entry === undefined || id === undefined) return false;
    this.forget(id as number, entry);
    if ("error" in response) {
      entry.reject(McpError.fromJsonRpc(response.error));
    } else {
      entry.resolve(response.result);
    }
    return true;
  }

  /** The call a pending request was sent for, if its sender named one. */
  callOf(id: RequestId): AbortSignal | undefined {
    const key = this.lookupKey(id);
    return key === undefined ? undefined : this.pending.get(key)?.call;
  }

  /** Gives a pending request up (its own timer ran out): rejected with `reason`, and the server told. */
  abandon(id: number, reason: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.forget(id, entry);
    this.onAbandon?.(id, entry.method, reason.message);
    entry.reject(reason);
  }

  /** Fails one request (a write that did not go through, say). */
  fail(id: RequestId, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.forget(id as number, entry);
    entry.reject(error);
  }

  /** Fails every pending request at once: the connection is gone. */
  failAll(error: Error): void {
    const entries = [...this.pending];
    for (const [id, entry] of entries) this.forget(id as number, entry);
    for (const [, entry] of entries) entry.reject(error);
  }

  private watch(signal: AbortSignal, id: number): void {
    const ids = this.watched.get(signal);
    if (ids) {
      ids.add(id);
      return;
    }
    this.watched.set(signal, new Set([id]));
    signal.addEventListener("abort", () => this.abandonAll(signal), { once: true });
  }

  private forget(id: number, entry: Pending): void {
    this.pending.delete(id);
    if (entry.signal) this.watched.get(entry.signal)?.delete(id);
  }

  /** The signal aborted: every request still pending under it is given up, and the server told. */
  private abandonAll(signal: AbortSignal): void {
    const ids = this.watched.get(signal);
    this.watched.delete(signal);
    if (!ids) return;
    for (const id of ids) {
      const entry = this.pending.get(id);
      if (!entry) continue;
      this.pending.delete(id);
      const reason = abortReason(signal, entry.method);
      this.onAbandon?.(id, entry.method, reason.message);
      entry.reject(reason);
    }
  }

  /** Some servers echo our numeric id back as a string; accept that rather than hang. */
  private lookupKey(id: RequestId | null): RequestId | undefined {
    if (id === null) return undefined;
    if (this.pending.has(id)) return id;
    if (typeof id === "string" && /^\d+$/.test(id) && this.pending.has(Number(id))) return Number(id);
    return undefined;
  }
}

function abortReason(signal: AbortSignal, method: string): Error {
  return signal.reason instanceof Error ? signal.reason : McpError.cancelled(method);
}
