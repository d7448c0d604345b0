import type { Clock } from "../../system/clock.ts";
import { McpError } from "../mcp-error.ts";
import type { JsonRpcConnection } from "../rpc/json-rpc-connection.ts";
import type { Transport } from "../transport/transport.ts";
import type { RequestOptions } from "./client-options.ts";
import type { EraStrategy } from "./era/era-strategy.ts";
import { RequestTimeout } from "./request-timeout.ts";

export interface RequestSenderOptions {
  connection: JsonRpcConnection;
  transport: Transport;
  clock: Clock;
  /** The client's timeout, for a request that names none. */
  timeoutMs: number;
  /** The era spoken until `use` says otherwise. */
  era: EraStrategy;
  /** Hears each failure of a request that is the server's (not a timeout, not the caller's abort), before it is thrown. */
  failed(error: unknown): void;
}

/**
 * How a client sends each request: within one timer (reset by a call's progress:
 * request-timeout.ts), with the params, waits and retries of the era it speaks (era/). A timeout
 * and a caller's abort both give the id up (told to the server as the era says); only the timeout
 * is an error of the server. A request sent again stays within the same timeout.
 */
export class RequestSender {
  private strategy: EraStrategy;

  constructor(private readonly options: RequestSenderOptions) {
    this.strategy = options.era;
  }

  /** The era's behaviour on every request. */
  get era(): EraStrategy {
    return this.strategy;
  }

  /** Speaks `era` from now on: the layers below are set for it. */
  use(era: EraStrategy): void {
    this.strategy = era;
    era.enter();
  }

  async send(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    const { connection, transport } = this.options;
    const timeout = new RequestTimeout(this.options.clock, connection, method, options.timeoutMs ?? this.options.timeoutMs, options.signal, options.registration);
    if (options.progress) options.progress.timeout = timeout;
    const era = this.strategy;
    const attempt = era.attempt(method);
    // An HTTP exchange holds its send's signal to its end (closing a modern request's stream is its
    // cancellation): it gets the timeout's. Elsewhere the timer gives the id up by itself.
    const signal = transport.kind === "http" ? timeout.signal : options.signal;
    // `call`: a server request on this request's own stream (HTTP) is known to belong to the caller's call.
    const sendOptions = { signal, headers: options.headers, registration: timeout, onAuthorizing: options.onAuthorizing, call: options.signal };
    try {
      for (;;) {
        const waiting = attempt.ready(timeout);
        if (waiting) await waiting;
        try {
          return await connection.request(method, era.params(params, options.progressToken, options.clientCapabilities), sendOptions);
        } catch (error) {
          if (!(error instanceof McpError && attempt.retry(error))) throw error;
        }
      }
    } catch (error) {
      const expired = timeout.expired();
      if (expired) throw expired;
      if (options.signal?.aborted) throw McpError.cancelled(method);
      this.options.failed(error);
      throw error;
    } finally {
      timeout.end();
    }
  }
}
