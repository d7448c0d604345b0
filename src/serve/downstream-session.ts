import * as v from "valibot";
import { McpError, LoggingLevel } from "../mcp/light-index.ts";
import { atLeast } from "../mcp/text-index.ts";
import type { ServerLogEntry } from "../mcp/index.ts";
import type { ClientAsk } from "./client-questions.ts";
import { ErrorCode, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JsonRpcNotification, type RequestId } from "../mcp/protocol.ts";
import { ClientCapabilities, MetaKey, ModernErrorCode, MODERN_PROTOCOL_VERSION, ProgressToken, ResultType } from "../mcp/stateless-protocol.ts";
import { exceedsDepth } from "../system/json-depth.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { VERSION } from "../version.ts";
import { InitializeParams, parseParams, SetLevelParams } from "./serve-params.ts";
import type { Subscriber } from "./served-subscriptions.ts";
import { SERVED_CAPABILITIES, type ServeMethods } from "./serve-methods.ts";

/** Who answers, in `initialize`, `server/discover` and every modern result's `_meta`. */
export const SERVER_INFO = { name: "cat-code", title: "cat-code mcp serve", version: VERSION } as const;

/** How deep a client's params may nest: deeper than any real tool arguments, far from any stack limit. */
export const MAX_PARAMS_DEPTH = 64;

/** Every version a client may speak to `mcp serve`: the modern one first, then the handshake ones. */
export const SERVED_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The handshake revisions' methods the 2026-07-28 revision removed: Method not found there. */
const REMOVED_IN_MODERN = ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"];
/**
 * What a 2026-07-28 client is told: the changes it may hear on `subscriptions/listen`, and no
 * `logging` (`logging/setLevel` is gone; a request's own `logLevel` is not served yet).
 */
const MODERN_CAPABILITIES = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} };
/** The 2026-07-28 results that say how long a client may cache them (besides every list). */
const CACHEABLE = ["server/discover", "resources/read"];

/** One request of the client, as a session answers it. */
export interface ClientRequest {
  method: string;
  params?: unknown;
  /** Aborts when the client cancels it or goes away. */
  signal: AbortSignal;
  /** Where this request's own notifications (progress) go, when not to the session's (HTTP: the request's response stream). */
  notify?: (method: string, params: Record<string, unknown>) => void;
  /** The request's id, as the client sent it. */
  id?: RequestId;
  /** How this request's upstream questions are put to its client, when not the session's way (HTTP: on the request's response stream). */
  ask?: ClientAsk;
}

export interface DownstreamSessionOptions {
  /** Sends a notification to this session's client. */
  notify(method: string, params: Record<string, unknown>): void;
  /** What the client is told about the servers behind (which ones need a sign-in, say), read at each handshake. */
  instructions?: () => string | undefined;
  /** Puts an upstream server's question or sampling request to this session's handshake client (stdio: a request). */
  ask?: ClientAsk;
  /** Requests of many clients come through this session (HTTP's 2026-07-28 requests, which carry no session): each is its own client. */
  manyClients?: boolean;
}

/**
 * One client's conversation with `mcp serve`, in the era each request shows: a request whose
 * `params._meta` names a protocol version is a 2026-07-28 request (its version, capabilities and
 * opt-ins are in that `_meta`, and its result says who answered); anything else belongs to an
 * `initialize` session of the handshake revisions. Answers `initialize`, `server/discover`, `ping`
 * and `logging/setLevel` itself and hands the feature methods to ServeMethods. Params nested too
 * deep are refused before anything reads them.
 */
export class DownstreamSession {
  /** The version an `initialize` agreed; undefined before one. */
  protocolVersion: string | undefined;
  clientCapabilities: ClientCapabilities = {};
  /** Server log messages at this level and above go to a handshake client (`logging/setLevel`); none before it asks. */
  private logLevel: LoggingLevel | undefined;
  private initialized = false;
  /** This client, as the resources it subscribed to see it. */
  private readonly subscriber: Subscriber = {
    updated: (uri) => {
      if (this.initialized) this.options.notify("notifications/resources/updated", { uri });
    },
  };

  constructor(
    private readonly methods: ServeMethods,
    private readonly options: DownstreamSessionOptions,
  ) {}

  /** Whether notifications that belong to no request (list changes, logs) may go to the client now. */
  get acceptsNotifications(): boolean {
    return this.initialized;
  }

  async answer(request: ClientRequest): Promise<unknown> {
    const { method, params } = request;
    if (params !== undefined && !isPlainObject(params)) throw new McpError(ErrorCode.InvalidParams, `params of ${method} must be an object`);
    if (exceedsDepth(params, MAX_PARAMS_DEPTH)) throw new McpError(ErrorCode.InvalidParams, `params of ${method} nest more than ${MAX_PARAMS_DEPTH} levels deep`);
    const meta = params?._meta;
    if (params && isPlainObject(meta) && MetaKey.protocolVersion in meta) return this.answerModern(request, params, meta);
    switch (method) {
      case "initialize":
        return this.initialize(params);
      case "ping":
        return {};
      case "server/discover":
        return this.discover();
      case "logging/setLevel": {
        const { level } = parseParams(SetLevelParams, params, method);
        const parsed = v.safeParse(LoggingLevel, level);
        if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `unknown logging level ${JSON.stringify(level).slice(0, 40)}`);
        this.logLevel = parsed.output;
        return {};
      }
    }
    const context = { ...this.context(request, progressTokenOf(meta)), ask: request.ask ?? this.options.ask, handshakeCapabilities: this.clientCapabilities };
    return this.methods.handle(method, params, context);
  }

  /** The client went away: its subscriptions end. */
  close(): void {
    this.methods.subscriptions.release(this.subscriber);
  }

  /** A notification from the client: `notifications/initialized` opens the session's own notifications. */
  heard(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/initialized") this.initialized = true;
  }

  /** A server log message, passed on to a handshake client that asked for its level. */
  forwardLog(entry: ServerLogEntry): void {
    if (!this.initialized || this.logLevel === undefined || !atLeast(entry.level, this.logLevel)) return;
    this.options.notify("notifications/message", { level: entry.level, logger: entry.server, data: entry.data });
  }

  private initialize(params: Record<string, unknown> | undefined): unknown {
    const { protocolVersion, capabilities } = parseParams(InitializeParams, params, "initialize");
    // The spec: answer with the version asked for when we speak it, else with our latest; the client decides.
    this.protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : LATEST_PROTOCOL_VERSION;
    this.clientCapabilities = v.safeParse(ClientCapabilities, capabilities).output as ClientCapabilities;
    const instructions = this.options.instructions?.();
    return { protocolVersion: this.protocolVersion, capabilities: SERVED_CAPABILITIES, serverInfo: SERVER_INFO, ...(instructions ? { instructions } : {}) };
  }

  private discover(): unknown {
    const instructions = this.options.instructions?.();
    return {
      supportedVersions: SERVED_VERSIONS,
      capabilities: MODERN_CAPABILITIES,
      ...(instructions ? { instructions } : {}),
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { [MetaKey.serverInfo]: SERVER_INFO },
    };
  }

  /** A 2026-07-28 request: its version checked, then answered like any other, its result saying who answered. */
  private async answerModern(request: ClientRequest, params: Record<string, unknown>, meta: Record<string, unknown>): Promise<unknown> {
    const { method } = request;
    const requested = meta[MetaKey.protocolVersion];
    if (requested !== MODERN_PROTOCOL_VERSION) {
      throw new McpError(ModernErrorCode.UnsupportedProtocolVersion, `unsupported protocol version ${JSON.stringify(requested)?.slice(0, 40)}`, {
        data: { supported: SERVED_VERSIONS, requested },
      });
    }
    // The revision: every request declares what its client can do; servers must not guess it.
    const capabilities = v.safeParse(ClientCapabilities, meta[MetaKey.clientCapabilities]);
    if (!capabilities.success) throw new McpError(ErrorCode.InvalidParams, `_meta["${MetaKey.clientCapabilities}"] must be an object (what this request's client can do)`);
    if (REMOVED_IN_MODERN.includes(method)) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol version ${MODERN_PROTOCOL_VERSION}`);
    const context = { ...this.context(request, progressTokenOf(meta)), modern: { capabilities: capabilities.output } };
    const result = method === "server/discover" ? this.discover() : await this.methods.handle(method, params, context);
    const answered = result as Record<string, unknown>;
    const ownMeta = isPlainObject(answered._meta) ? answered._meta : {};
    // The revision's lists and discover say how long a client may cache them: not at all, since a server may come or go any moment.
    // An upstream question during a request comes back as input_required (see InputRounds); everything else is final.
    const resultType = answered.resultType === ResultType.inputRequired ? ResultType.inputRequired : ResultType.complete;
    const final = resultType === ResultType.complete;
    const cacheable = final && (CACHEABLE.includes(method) || method.endsWith("/list")) ? { ttlMs: 0, cacheScope: "private" } : {};
    return { ...answered, ...cacheable, resultType, _meta: { ...ownMeta, [MetaKey.serverInfo]: SERVER_INFO } };
  }

  private context(request: ClientRequest, progressToken: ProgressToken | undefined) {
    const client = this.options.manyClients ? undefined : this;
    return { signal: request.signal, progressToken, notify: request.notify ?? this.options.notify, subscriber: this.subscriber, requestId: request.id, client };
  }
}

/** The progress token a request's `_meta` carries, in either era. */
export function progressTokenOf(meta: unknown): ProgressToken | undefined {
  if (!isPlainObject(meta)) return undefined;
  const parsed = v.safeParse(ProgressToken, meta[MetaKey.progressToken]);
  return parsed.success ? parsed.output : undefined;
}
