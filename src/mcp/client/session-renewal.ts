/**
 * When a Streamable HTTP server forgets our session (404 on a request that carried it), the client
 * starts a new one with the same handshake as `connect()` and sends the request again. This keeps
 * the bookkeeping: requests that hit the same expiry share one renewal, and a request that failed
 * on a session already replaced just goes again. Only HTTP servers ever expire a session.
 */
export class SessionRenewal {
  /** Counts the handshakes done: tells a request which session it was sent in. */
  private _generation = 0;
  private lost = false;
  private running: Promise<void> | undefined;

  constructor(private readonly handshake: () => Promise<void>) {}

  get generation(): number {
    return this._generation;
  }

  /** Whether the session is gone and no handshake has replaced it yet: the next request renews first. */
  get needed(): boolean {
    return this.lost;
  }

  /** A handshake completed: the first one or a renewal. */
  established(): void {
    this._generation++;
    this.lost = false;
  }

  /** A request sent in `generation` met an expired session; if none replaced it since, one is needed. */
  expired(generation: number): void {
    if (generation === this._generation) this.lost = true;
  }

  /** Waits for the one renewal under way, starting it if there is none. `signal` stops the waiting, not the renewal. */
  renew(signal: AbortSignal): Promise<void> {
    this.running ??= this.handshake().finally(() => (this.running = undefined));
    return untilAborted(this.running, signal);
  }
}

function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
