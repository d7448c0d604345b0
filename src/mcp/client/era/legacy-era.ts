import { log } from "../../../log.ts";
import { isPlainObject } from "../../../system/plain-object.ts";
import { McpError } from "../../mcp-error.ts";
import { InitializeResult, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol.ts";
import type { JsonRpcConnection } from "../../rpc/json-rpc-connection.ts";
import type { ClientCapabilities, ProgressToken } from "../../stateless-protocol.ts";
import type { Transport } from "../../transport/transport.ts";
import type { RequestOptions } from "../client-options.ts";
import { parseResult } from "../parse-result.ts";
import { CLIENT_INFO } from "../request-meta.ts";
import { objectParams, type AnsweringClient, type EraAttempt, type EraStrategy } from "./era-strategy.ts";

/**
 * The handshake revisions (2024-11-05 to 2025-11-25): `initialize` said who we are once, so a
 * request goes with its params as given; a request given up is followed by
 * `notifications/cancelled`; and when a Streamable HTTP server forgets our session (404 on a
 * request that carried it), a new one is started with the same handshake as `connect()` and the
 * request sent again, once. Requests that hit the same expiry share one renewal, and a request
 * that failed on a session already replaced just goes again. Only HTTP servers ever expire a session.
 */
export class LegacyEra implements EraStrategy {
  readonly era = "legacy";
  /** Counts the handshakes done: tells a request which session it was sent in. */
  private generation = 0;
  /** The session is gone and no handshake has replaced it yet: the next request renews first. */
  private lost = false;
  private renewal: Promise<void> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly connection: JsonRpcConnection,
    /** What the client declares in `initialize`. */
    private readonly capabilities: ClientCapabilities,
    /** The client's handshake (see `handshake`) again, for a renewal. */
    private readonly renew: () => Promise<void>,
  ) {}

  /** Back from a modern probe, if there was one: no version header until the handshake agrees one. */
  enter(): void {
    this.connection.sendsCancellation = true;
    this.transport.setProtocolVersion?.(undefined);
  }

  /**
   * `initialize`, its version checked, then `notifications/initialized`: on connect and on every
   * renewal of an expired session alike, so a new session cannot slip in a version we do not speak.
   * `initialize` sends the request (within the client's timeout); `answered` hears the server's
   * result once its version is checked.
   */
  async handshake(initialize: (params: Record<string, unknown>) => Promise<unknown>, answered: (result: InitializeResult) => void): Promise<void> {
    const raw = await initialize({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.capabilities, clientInfo: CLIENT_INFO });
    const result = parseResult(InitializeResult, raw, "initialize");
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new McpError(
        undefined,
        `unsupported protocol version ${result.protocolVersion} (cat-code speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
      );
    }
    answered(result);
    this.transport.setProtocolVersion?.(result.protocolVersion);
    await this.connection.notify("notifications/initialized");
    this.generation++;
    this.lost = false;
    // For every server, whatever it declares: a request it sends there is otherwise never seen.
    this.transport.openNotificationStream?.();
  }

  /**
   * The params as given, with only `_meta.progressToken` added when there is one. No capabilities:
   * the handshake declared ours for the whole session, and a request cannot narrow them (a
   * gateway filters its server's requests instead: see mcp serve's client-questions.ts).
   */
  params(params: unknown, progressToken?: ProgressToken): unknown {
    const checked = objectParams(params);
    if (progressToken === undefined) return checked;
    const existing = checked?._meta;
    const meta = isPlainObject(existing) ? existing : {};
    return { ...checked, _meta: { ...meta, progressToken } };
  }

  sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions, client: AnsweringClient): Promise<unknown> {
    return client.request(method, params, options);
  }

  attempt(method: string): EraAttempt {
    return new LegacyAttempt(this, method);
  }

  /** Waits for the one renewal under way, starting it if there is none; undefined when the session holds. */
  renewed(timeout: { readonly signal: AbortSignal }): Promise<void> | undefined {
    if (!this.lost) return undefined;
    this.renewal ??= this.renew().finally(() => (this.renewal = undefined));
    // The request's signal stops the waiting, not the renewal.
    return untilAborted(this.renewal, timeout.signal);
  }

  /** For log lines. */
  get description(): string {
    return this.transport.description;
  }

  /** Which session a request is sent in. */
  get session(): number {
    return this.generation;
  }

  /** A request sent in `session` met an expired session; if none replaced it since, one is needed. */
  expired(session: number): void {
    if (session === this.generation) this.lost = true;
  }
}

class LegacyAttempt implements EraAttempt {
  private sentIn = 0;
  private renewals = 0;

  constructor(
    private readonly era: LegacyEra,
    private readonly method: string,
  ) {}

  ready(timeout: { readonly signal: AbortSignal }): Promise<void> | undefined {
    // An initialize is the renewal itself: it never waits for one.
    const renewing = this.method === "initialize" ? undefined : this.era.renewed(timeout);
    if (!renewing) {
      this.sentIn = this.era.session;
      return undefined;
    }
    return renewing.then(() => {
      this.sentIn = this.era.session;
    });
  }

  retry(error: McpError): boolean {
    if (error.kind !== "session-expired" || this.method === "initialize") return false;
    this.era.expired(this.sentIn);
    if (this.renewals++ > 0) {
      throw McpError.closed(`the server at ${error.url} expired the session, then refused the new one too (404 twice)`);
    }
    log.debug(`${this.era.description}: the session expired; starting a new one`);
    return true;
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
