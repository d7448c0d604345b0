import { McpCancelledError, McpError } from "../mcp-error.ts";
import type { JsonRpcResponse, RequestId } from "../protocol.ts";

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/**
 * The one place that correlates answers with requests. Ids are numbers we allocate; an entry is
 * registered before its request is written, so an answer can never arrive before its waiter.
 */
export class PendingRequests {
  /**
   * `onAbandon` hears of each request given up by an abort while still pending, so the transport
   * can tell the server with `notifications/cancelled`.
   */
  constructor(private readonly onAbandon?: (id: number, method: string, reason: string) => void) {}

  private nextId = 0;
  private readonly pending = new Map<RequestId, Pending>();

  get size(): number {
    return this.pending.size;
  }

  /** Allocates an id and a promise for its answer. An abort rejects at once with the signal's reason. */
  register(method: string, signal?: AbortSignal): { id: number; answer: Promise<unknown> } {
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        const wasPending = this.pending.delete(id);
        const reason = signal?.reason instanceof Error ? signal.reason : new McpCancelledError(method);
        if (wasPending) this.onAbandon?.(id, method, reason.message);
        reject(reason);
      };
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new McpCancelledError(method));
      signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => signal?.removeEventListener("abort", onAbort);
      this.pending.set(id, { method, resolve, reject, cleanup });
    });
    return { id, answer };
  }

  /** Settles the request a response answers. Returns false for an id we are not waiting on. */
  settle(response: JsonRpcResponse): boolean {
    const id = this.lookupKey(response.id);
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (entry === undefined || id === undefined) return false;
    this.pending.delete(id);
    entry.cleanup();
    if ("error" in response) {
      const { code, message, data } = response.error;
      entry.reject(new McpError(code, message, { data }));
    } else {
      entry.resolve(response.result);
    }
    return true;
  }

  /** Fails one request (a write that did not go through, say). */
  fail(id: RequestId, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.cleanup();
    entry.reject(error);
  }

  /** Fails every pending request at once: the connection is gone. */
  failAll(error: Error): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) {
      entry.cleanup();
      entry.reject(error);
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
