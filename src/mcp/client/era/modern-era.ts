import { log } from "../../../log.ts";
import type { McpError } from "../../mcp-error.ts";
import type { JsonRpcConnection } from "../../rpc/json-rpc-connection.ts";
import { MODERN_PROTOCOL_VERSION, type ClientCapabilities, type ProgressToken, type SubscriptionFilter } from "../../stateless-protocol.ts";
import type { Transport } from "../../transport/transport.ts";
import { stillOffersModern } from "../era-detection.ts";
import { forwardedCapabilities } from "../client-capabilities.ts";
import type { RequestOptions } from "../client-options.ts";
import { sendWithInputRounds } from "../input-required.ts";
import { withRequestMeta } from "../request-meta.ts";
import { objectParams, type AnsweringClient, type EraAttempt, type EraStrategy } from "./era-strategy.ts";

/** How often a modern request whose response stream broke is sent again (each time with a new id). */
const MAX_STREAM_REISSUES = 2;

/**
 * The stateless revision (2026-07-28): no handshake, so every request carries the revision's
 * `_meta` (version, identity, capabilities, log level, progress token). Over HTTP each request
 * has its own response stream, and closing it is the cancellation (no `notifications/cancelled`);
 * a request whose stream broke is sent again with a new id, at most twice; one refused with
 * -32022 while the server still lists our version (a transient refusal) is sent once more.
 */
export class ModernEra implements EraStrategy {
  readonly era = "modern";

  constructor(
    private readonly transport: Transport,
    private readonly connection: JsonRpcConnection,
    /** What the client declares, on every request. */
    private readonly capabilities: ClientCapabilities,
  ) {}

  enter(): void {
    this.transport.setProtocolVersion?.(MODERN_PROTOCOL_VERSION);
    // Closing a modern HTTP request's stream is its cancellation.
    this.connection.sendsCancellation = this.transport.kind !== "http";
  }

  params(params: unknown, progressToken?: ProgressToken, callerCapabilities?: ClientCapabilities): unknown {
    // The debug log is where a server's log lines go: ask for all of them only when it is shown.
    const logLevel = log.level >= 4 ? "debug" : "warning";
    const capabilities = callerCapabilities ? forwardedCapabilities(this.capabilities, callerCapabilities) : this.capabilities;
    return withRequestMeta(objectParams(params), { capabilities, logLevel, progressToken });
  }

  sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions, client: AnsweringClient): Promise<unknown> {
    return sendWithInputRounds(params, {
      method,
      signal: options.signal,
      send: (round) => client.request(method, round, options),
      answer: (inputRequests) => client.answer(inputRequests, options.signal),
    });
  }

  /** The long-lived `subscriptions/listen` request: no timeout; its notifications come as any server notification. */
  listen(filter: SubscriptionFilter, signal: AbortSignal, registered: (id: number) => void): Promise<unknown> {
    return this.connection.request("subscriptions/listen", this.params({ notifications: filter }), { signal, registration: { registered } });
  }

  attempt(method: string): EraAttempt {
    return new ModernAttempt(this.transport.description, method);
  }
}

class ModernAttempt implements EraAttempt {
  private reissues = 0;
  private versionRetries = 0;

  constructor(
    private readonly description: string,
    private readonly method: string,
  ) {}

  ready(): undefined {
    return undefined;
  }

  retry(error: McpError): boolean {
    if (error.kind === "stream-lost" && this.reissues++ < MAX_STREAM_REISSUES) {
      log.debug(`${this.description}: the stream answering ${this.method} broke; sending it again`);
      return true;
    }
    if (stillOffersModern(error) && this.versionRetries++ < 1) {
      log.debug(`${this.description}: ${this.method} was refused with -32022 though the server lists our version; once more`);
      return true;
    }
    return false;
  }
}
