import { log } from "../../log.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import { isCancellation, McpError } from "../mcp-error.ts";
import {
  CallToolResult,
  type Completion,
  type CompletionReference,
  GetPromptResult,
  type Implementation,
  type JsonRpcNotification,
  type Prompt,
  ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ToolDefinition,
} from "../protocol.ts";
import { JsonRpcConnection } from "../rpc/json-rpc-connection.ts";
import type { ClientCapabilities } from "../stateless-protocol.ts";
import type { Transport } from "../transport/transport.ts";
import { ProgressTracker } from "./progress.ts";
import { RequestSender } from "./request-sender.ts";
import { declaredCapabilities } from "./client-capabilities.ts";
import { DEFAULT_TIMEOUT_MS, type CallOptions, type ClientState, type McpClientOptions, type RequestOptions } from "./client-options.ts";
import { answerInputRequests } from "./client-requests.ts";
import type { ModernServer } from "./era-detection.ts";
import { EraOpening } from "./era/era-opening.ts";
import type { AnsweringClient } from "./era/era-strategy.ts";
import { LegacyEra } from "./era/legacy-era.ts";
import { ModernEra } from "./era/modern-era.ts";
import { FeatureRequests } from "./feature-requests.ts";
import { ResourceSubscriptions } from "./resource-subscriptions.ts";
import { announcesListChanges, mayHaveTools, offersFeature, type ServerFeature } from "./server-features.ts";
import type { Era } from "./version-negotiation.ts";
import { ServerTextMask } from "./masked-server-text.ts";
import { ServerTools } from "./server-tools.ts";
import { answerServerRequest, consumeOwnNotification } from "./server-messages.ts";

export type { BoundEraMemory } from "./era/era-opening.ts";
export type { ServerFeature } from "./server-features.ts";

export { DEFAULT_TIMEOUT_MS, type CallOptions, type ClientState, type McpClientOptions } from "./client-options.ts";

/**
 * One MCP server, of either protocol era: the modern one (2026-07-28: no handshake, `_meta` on
 * every request) or a legacy one (the handshake, and its renewal when an HTTP server expires the
 * session); tools/list (paged, cached for the connection) and tools/call, each with a timeout; the
 * resources, prompts and completions the server declared (never asked of one that did not), their
 * lists paged and cached like the tools', resource subscriptions in either era (feature-requests.ts);
 * the server's own requests answered, its progress and log acted on (server-messages.ts).
 * Speaks JSON-RPC through a `JsonRpcConnection` and knows nothing of how bytes move; what differs
 * between the eras is their strategy objects' (era/), and every request goes through one
 * `RequestSender`.
 */
export class McpClient {
  private _state: ClientState = { status: "idle" };
  private readonly tools: ServerTools;
  private readonly answering: AnsweringClient = {
    request: (method, params, options) => this.request(method, params, options),
    answer: (inputRequests, signal) => answerInputRequests(inputRequests, { server: this.serverName, features: this.options, signal }),
  };
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly progress = new ProgressTracker((text, max) => this.masks.shown(text, max));
  private readonly stopWatchingRoots: (() => void) | undefined;
  private readonly masks: ServerTextMask;
  /** A close `connect` started and did not wait for (see `connect`): `close()` waits for it. */
  private closed: Promise<void> | undefined;
  readonly connection: JsonRpcConnection;
  serverInfo: Implementation | undefined;
  protocolVersion: string | undefined;
  instructions: string | undefined;
  /** What the server declared (`initialize`, or `server/discover` for a modern server). */
  serverCapabilities: Record<string, unknown> | undefined;
  private readonly legacy: LegacyEra;
  private readonly modern: ModernEra;
  /** Sends every request, in the era found (legacy until `connect` finds otherwise). */
  private readonly requests: RequestSender;
  private readonly opening: EraOpening;
  private readonly capabilities: ClientCapabilities;
  /** Resources, prompts and completions, each asked only of a server that declared it. */
  private readonly features: FeatureRequests;
  private readonly subscriptions: ResourceSubscriptions;

  constructor(
    readonly transport: Transport,
    private readonly options: McpClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.masks = new ServerTextMask(options.secrets, () => transport.credentials?.() ?? []);
    this.stopWatchingRoots = options.roots?.onChange(() => this.rootsChanged());
    this.capabilities = declaredCapabilities(options);
    this.connection = new JsonRpcConnection(transport);
    this.legacy = new LegacyEra(transport, this.connection, this.capabilities, () => this.handshake({}).then(() => this.subscriptions.renewed()));
    this.modern = new ModernEra(transport, this.connection, this.capabilities);
    this.requests = new RequestSender({
      connection: this.connection,
      transport,
      clock: this.clock,
      timeoutMs: this.timeoutMs,
      era: this.legacy,
      failed: (error) => {
        this.mask(error);
        // HTTP has no connection to end: a server that no longer answers at all is gone all the same.
        if (error instanceof McpError && error.kind === "unreachable") this.lost(error);
      },
    });
    this.opening = new EraOpening({
      transport,
      clock: this.clock,
      timeoutMs: this.timeoutMs,
      memory: options.eraMemory,
      skipProbe: options.skipProbe,
      era: () => this.era,
      protocolVersion: () => this.protocolVersion,
      useModern: () => this.requests.use(this.modern),
      request: (method, params, requestOptions) => this.request(method, params, requestOptions),
      handshake: (handshakeOptions) => this.handshake(handshakeOptions),
      openModern: (server) => this.openModern(server),
      connected: () => this._state.status === "connected",
      // The connection ended by itself (a stdio server that exited) during connect.
      connectionEnded: () => this._state.status === "failed",
    });
    this.tools = new ServerTools({
      request: (method, params, requestOptions) => this.request(method, params, requestOptions),
      sendAnswering: (method, params, requestOptions) => this.sendAnswering(method, params, requestOptions),
      paramHeadersApply: () => this.era === "modern" && transport.kind === "http",
      progress: this.progress,
      masked: (result) => this.masks.result(result),
      serverName: this.serverName,
      onRejectedTool: options.onRejectedTool,
    });
    this.subscriptions = new ResourceSubscriptions({
      era: () => this.era,
      request: (method, params, requestOptions) => this.request(method, params, requestOptions),
      listen: (filter, signal, registered) => this.modern.listen(filter, signal, registered),
      timeoutMs: this.timeoutMs,
      clock: this.clock,
      description: transport.description,
    });
    this.features = new FeatureRequests(
      {
        offers: (feature) => this.offers(feature),
        name: () => this.options.name ?? this.serverInfo?.name ?? "(unnamed)",
        request: (method, params, requestOptions) => this.request(method, params, requestOptions),
        sendAnswering: (method, params, requestOptions) => this.sendAnswering(method, params, requestOptions),
      },
      this.subscriptions,
      this.serverName,
    );
    this.connection.onRequest = (request, context) => answerServerRequest(request, context, this.serverName, this.options);
    this.connection.onNotification = (notification) => this.handleNotification(notification);
    this.connection.onStrayAnswer = (response) => this.opening.lateAnswer(response);
    this.connection.onClose = (error) => {
      this.subscriptions.stop();
      if (this._state.status === "connecting") this._state = { status: "failed", reason: error.message };
      this.lost(error);
    };
  }

  get state(): ClientState {
    return this._state;
  }

  /** The protocol generation the server speaks; "legacy" until `connect` found otherwise. */
  get era(): Era {
    return this.requests.era.era;
  }

  /**
   * Starts the transport, finds the server's era and opens it (the handshake, or the modern
   * server's `server/discover`). On failure the state is FAILED with the reason, and the connection
   * is closed: awaited, except after a probe that ended the server (the `McpError` kind `probe-ended`), whose
   * caller starts it again at once; `close()` then waits for the old process tree to end.
   */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    this._state = { status: "connecting" };
    try {
      await this.transport.start();
      await this.opening.open(options);
      this._state = { status: "connected" };
    } catch (error) {
      this.mask(error);
      this._state =
        isCancellation(error) ? { status: "closed" } : { status: "failed", reason: (error as Error).message };
      // A server that closed its stdout and ignores the end of stdin takes the close's 2 s + 2 s.
      const closed = this.connection.close();
      if (!(error instanceof McpError && error.kind === "probe-ended")) await closed;
      else this.closed = closed.catch(() => {});
      throw error;
    }
  }

  /** Every tool of the server, all pages, asked once per connection. */
  listTools(options: CallOptions = {}): Promise<ToolDefinition[]> {
    if (!mayHaveTools(this.serverCapabilities)) return Promise.resolve([]);
    return this.tools.listAll(options);
  }

  /** The next `listTools` asks the server again: for a holder that may have missed `list_changed`. */
  forgetTools(): void {
    this.tools.forget();
  }

  /** Calls a tool (ServerTools.call: progress, input rounds, `Mcp-Param-*` headers). */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return this.tools.call(name, args, options);
  }

  /** Whether the server declared this feature (`resources`, `resources.subscribe`, `prompts`, `completions`). */
  offers(feature: ServerFeature): boolean {
    return offersFeature(this.serverCapabilities, feature);
  }

  /** Every resource, all pages; cached for the connection until `notifications/resources/list_changed`. */
  listResources(options: CallOptions = {}): Promise<Resource[]> {
    return this.features.listResources(options);
  }

  /** Every resource template, all pages; cached like `listResources`. */
  listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplate[]> {
    return this.features.listResourceTemplates(options);
  }

  /** `resources/read`; a 2026-07-28 server may ask for input first (answered as for tools/call). */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.features.readResource(uri, options);
  }

  /** Asks to hear `notifications/resources/updated` for this URI (legacy: resources/subscribe; modern: the listen filter). */
  subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    return this.features.subscribeResource(uri, options);
  }

  unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    return this.features.unsubscribeResource(uri, options);
  }

  /** Every prompt, all pages; cached until `notifications/prompts/list_changed`. */
  listPrompts(options: CallOptions = {}): Promise<Prompt[]> {
    return this.features.listPrompts(options);
  }

  /** `prompts/get` with string arguments; a 2026-07-28 server may ask for input first. */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.features.getPrompt(name, args, options);
  }

  /** `completion/complete`: values for one argument of a prompt or variable of a resource template (at most 100). */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: CallOptions & { context?: Record<string, string> } = {},
  ): Promise<Completion> {
    return this.features.complete(ref, argument, options);
  }

  /** Whether anyone uses the connection now: see Transport.setIdle (HTTP closes its standalone stream while idle). */
  setIdle(idle: boolean): void {
    this.transport.setIdle?.(idle);
  }

  async close(): Promise<void> {
    this.stopWatchingRoots?.();
    if (this._state.status !== "failed") this._state = { status: "closed" };
    this.subscriptions.stop();
    await (this.closed ?? this.connection.close());
  }

  private openModern(server: ModernServer): void {
    this.requests.use(this.modern);
    this.describe(server.version, server);
    if (this.options.watchChanges === false) return;
    const announces = (capability: "tools" | "resources" | "prompts") => announcesListChanges(server.capabilities, capability);
    // Resource subscriptions join this same stream later (resource-subscriptions.ts).
    this.subscriptions.watchLists({
      toolsListChanged: announces("tools"),
      resourcesListChanged: announces("resources"),
      promptsListChanged: announces("prompts"),
    });
  }

  /** The handshake (LegacyEra.handshake) within this client's timeout; what the server says of itself is kept. */
  private async handshake(options: CallOptions): Promise<void> {
    this.requests.use(this.legacy);
    await this.legacy.handshake(
      (params) => this.request("initialize", params, options),
      (result) => this.describe(result.protocolVersion, result),
    );
  }

  /** A request that a 2026-07-28 server may answer "input required" (tools/call, resources/read, prompts/get). */
  private sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
    return this.requests.era.sendAnswering(method, params, options, this.answering);
  }

  /** Who asks, in questions put to the user; never the transport's description (a URL may hold a token). */
  private get serverName(): string {
    return this.options.name ?? "the MCP server";
  }

  private request(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    return this.requests.send(method, params, options);
  }

  /** What the server said of itself (`initialize`, or `server/discover` for a modern server). */
  private describe(version: string, server: { serverInfo?: Implementation; instructions?: string; capabilities: Record<string, unknown> }): void {
    this.protocolVersion = version;
    this.serverInfo = server.serverInfo;
    this.instructions = server.instructions;
    this.serverCapabilities = server.capabilities;
  }

  /** A connected server went away by itself: FAILED, and whoever listens hears it once. */
  private lost(error: Error): void {
    if (this._state.status !== "connected") return;
    this.mask(error);
    this._state = { status: "failed", reason: error.message };
    this.options.onLost?.(error);
  }

  /** What must not be shown of what this server says: every form of its secrets (see ServerTextMask). The pool masks failures with it too. */
  secretValues(): readonly string[] {
    return this.masks.secretValues();
  }

  private mask(error: unknown): void {
    this.masks.error(error);
  }

  private handleNotification(notification: JsonRpcNotification): void {
    consumeOwnNotification(notification, this.serverName, this.progress, this.options.onLog, (text, max) => this.masks.shown(text, max));
    if (notification.method === "notifications/tools/list_changed") this.tools.forget();
    this.features.heard(notification.method);
    this.subscriptions.heard(notification);
    log.debug(`notification from ${this.transport.description}: ${notification.method}`);
    this.options.onNotification?.(notification);
  }

  /** Our roots changed: a handshake-revision server is told (the modern revision has no such notification). */
  private rootsChanged(): void {
    if (this.era !== "legacy" || this._state.status !== "connected") return;
    this.connection
      .notify("notifications/roots/list_changed")
      .catch((error: Error) => log.debug(`${this.serverName}: could not send notifications/roots/list_changed: ${error.message}`));
  }
}

