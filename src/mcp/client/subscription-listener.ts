import { log } from "../../log.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";

/** The waits before listening again after a listen stream ended or failed; past the last, it is given up. */
export const LISTEN_BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000] as const;
/** A listen stream that lasted this long was healthy: the failures counted before it are forgiven. */
export const HEALTHY_LISTEN_MS = 60_000;

/**
 * Keeps one `subscriptions/listen` request open for a modern server (2026-07-28), whose change
 * notifications (tools/list_changed) come only on that request's stream; the notifications
 * themselves reach the client through the connection like any other. The request has no timeout
 * and lives until `stop()`. When it ends or fails, it is made again after a backoff, a bounded
 * number of times in a row; a refusal from the server (an error response) is final.
 */
export class SubscriptionListener {
  private readonly stopper = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    /** Sends the listen request; settles when its stream ends. */
    private readonly listen: (signal: AbortSignal) => Promise<unknown>,
    /** For log lines: the transport's description. */
    private readonly description: string,
    private readonly clock: Clock = systemClock,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Ends the listen request (closing its stream, or `notifications/cancelled` over stdio). Safe to call twice. */
  stop(): void {
    this.stopper.abort(McpError.cancelled("subscriptions/listen"));
  }

  /** Settles once the loop is over (stopped, refused, or given up); for tests. */
  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async loop(): Promise<void> {
    const signal = this.stopper.signal;
    let failures = 0;
    while (!signal.aborted) {
      const startedAt = this.clock.now();
      let why: string;
      try {
        await this.listen(signal);
        why = "the server ended it";
      } catch (error) {
        if (signal.aborted) return;
        if (isRefusal(error)) {
          log.debug(`${this.description}: subscriptions/listen refused (${(error as Error).message}); no change notifications`);
          return;
        }
        why = (error as Error).message;
      }
      if (this.clock.now() - startedAt >= HEALTHY_LISTEN_MS) failures = 0;
      const wait = LISTEN_BACKOFF_MS[failures++];
      if (wait === undefined) {
        log.debug(`${this.description}: subscriptions/listen ended ${failures - 1} times in a row (${why}); no more change notifications`);
        return;
      }
      log.debug(`${this.description}: subscriptions/listen ended (${why}); listening again in ${wait} ms`);
      if (!(await this.sleep(wait, signal))) return;
    }
  }

  private sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        this.clock.clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/**
 * An error response from the server (unknown method, bad params): asking again gets the same. A
 * broken stream, a closed connection or a status without a JSON-RPC error may pass.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof McpError) || error.kind === "stream-lost" || error.kind === "unreachable") return false;
  if (error.code === undefined || error.code === ErrorCode.ConnectionClosed) return false;
  return error.status === undefined || error.status < 500;
}
