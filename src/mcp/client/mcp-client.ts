import { log } from "../../log.ts";
import type { Clock } from "../../system/clock.ts";
import { VERSION } from "../../version.ts";
import { isCancellation, McpError } from "../mcp-error.ts";
import {
  CallToolResult,
  ErrorCode,
  InitializeResult,
  LATEST_PROTOCOL_VERSION,
  ListToolsResult,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Implementation,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type ToolDefinition,
} from "../protocol.ts";
import { JsonRpcConnection } from "../rpc/json-rpc-connection.ts";
import type { Transport } from "../transport/transport.ts";
import { parseResult } from "./parse-result.ts";
import type { ProgressUpdate } from "./progress.ts";
import type { ClientFeatureOptions } from "./client-capabilities.ts";
import type { ServerLogEntry } from "./server-log.ts";
import { SessionRenewal } from "./session-renewal.ts";
import { TimeoutGroups } from "./timeout-groups.ts";
import { checkToolDefinitions, type RejectedTool } from "./tool-definitions.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** A server that keeps handing out cursors is broken, not large. */
const MAX_TOOL_PAGES = 1000;

export type ClientState =
  | { status: "idle" }
  | { status: "connecting" }
  | { status: "connected" }
  | { status: "failed"; reason: string }
  | { status: "closed" };

export interface CallOptions {
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** Aborting cancels the call: the server is told, and the call rejects with an `McpError` whose code is `RequestCancelled`. */
  signal?: AbortSignal;
  /** Hears the call's `notifications/progress`, each with a progress greater than the last. */
  onProgress?: (progress: ProgressUpdate) => void;
}

export interface McpClientOptions extends ClientFeatureOptions {
  /** The server's name in the config: what messages and the elicitation question call it. */
  name?: string;
  /** Per-request timeout; the default is 30 s. */
  timeoutMs?: number;
  /** Where the timeouts get their time; the system clock unless a test hands in a fake. */
  clock?: Clock;
  /** Hears server notifications other than the ones the client handles itself. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Hears of each listed tool that is left out (too deep, too large, malformed); the default logs a warning. */
  onRejectedTool?: (tool: RejectedTool) => void;
  /** Hears each valid `notifications/message`; the pool names the server in `entry.server`. */
  onLog?: (entry: ServerLogEntry) => void;
}

/** What the client says of itself in `initialize`: the same on every handshake of a connection. */
const INITIALIZE_PARAMS = {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "cat-code", version: VERSION },
};

/**
 * One MCP server: the handshake (and its renewal when an HTTP server expires the session),
 * tools/list (paged, cached for the connection) and tools/call, each with a timeout. Speaks
 * JSON-RPC through a `JsonRpcConnection` and knows nothing of how bytes move.
 */
export class McpClient {
  private _state: ClientState = { status: "idle" };
  private toolsCache: Promise<ToolDefinition[]> | undefined;
  private readonly timeoutMs: number;
  private readonly timeouts: TimeoutGroups;
  private readonly session = new SessionRenewal(() => this.handshake({}));
  readonly connection: JsonRpcConnection;
  serverInfo: Implementation | undefined;
  protocolVersion: string | undefined;
  instructions: string | undefined;

  constructor(
    readonly transport: Transport,
    private readonly options: McpClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.timeouts = new TimeoutGroups(options.clock);
    this.connection = new JsonRpcConnection(transport);
    this.connection.onRequest = (request) => this.answerServerRequest(request);
    this.connection.onNotification = (notification) => this.handleNotification(notification);
    this.connection.onClose = (error) => {
      if (this._state.status === "connected" || this._state.status === "connecting") {
        this._state = { status: "failed", reason: error.message };
      }
    };
  }

  get state(): ClientState {
    return this._state;
  }

  /** Starts the transport and runs the handshake. On failure the state is FAILED with the reason. */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    this._state = { status: "connecting" };
    try {
      await this.transport.start();
      await this.handshake(options);
      this._state = { status: "connected" };
    } catch (error) {
      this._state =
        isCancellation(error) ? { status: "closed" } : { status: "failed", reason: (error as Error).message };
      await this.connection.close();
      throw error;
    }
  }

  /** Every tool of the server, all pages, asked once per connection. */
  listTools(options: CallOptions = {}): Promise<ToolDefinition[]> {
    if (!this.toolsCache) {
      this.toolsCache = this.fetchAllTools(options);
      this.toolsCache.catch(() => (this.toolsCache = undefined));
    }
    return this.toolsCache;
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const raw = await this.request("tools/call", { name, arguments: args }, options);
    return parseResult(CallToolResult, raw, "tools/call");
  }

  async close(): Promise<void> {
    if (this._state.status !== "failed") this._state = { status: "closed" };
    await this.connection.close();
  }

  /**
   * `initialize`, its version checked, then `notifications/initialized`: on connect and on every
   * renewal of an expired session alike, so a new session cannot slip in a version we do not speak.
   */
  private async handshake(options: CallOptions): Promise<void> {
    const raw = await this.request("initialize", INITIALIZE_PARAMS, options);
    const result = parseResult(InitializeResult, raw, "initialize");
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new McpError(
        undefined,
        `unsupported protocol version ${result.protocolVersion} (cat-code speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
      );
    }
    this.protocolVersion = result.protocolVersion;
    this.serverInfo = result.serverInfo;
    this.instructions = result.instructions;
    this.transport.setProtocolVersion?.(result.protocolVersion);
    await this.connection.notify("notifications/initialized");
    this.session.established();
    // For every server, whatever it declares: a request it sends there is otherwise never seen.
    this.transport.openNotificationStream?.();
  }

  private async fetchAllTools(options: CallOptions): Promise<ToolDefinition[]> {
    const tools: ToolDefinition[] = [];
    let listed = 0;
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const raw = await this.request("tools/list", cursor === undefined ? {} : { cursor }, options);
      // The page's own depth is not bounded here: each tool is checked on its own, so one bad tool costs only itself.
      const result = parseResult(ListToolsResult, raw, "tools/list", Infinity);
      const page = checkToolDefinitions(result.tools, listed);
      listed += result.tools.length;
      for (const rejected of page.rejected) this.rejectTool(rejected);
      tools.push(...page.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === "") return tools;
      if (seenCursors.has(cursor)) throw new McpError(undefined, `tools/list repeated the cursor ${JSON.stringify(cursor)}`);
      seenCursors.add(cursor);
    }
    throw new McpError(undefined, `tools/list gave more than ${MAX_TOOL_PAGES} pages`);
  }

  /**
   * A request with this client's timeout. A timeout and a caller's abort both make the connection
   * forget the id and send `notifications/cancelled`; only the timeout is an error of the server.
   * A request that meets an expired session renews it (once for all that met the same expiry) and
   * goes again, once: the timeout covers the whole.
   */
  private async request(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timeout = this.timeouts.acquire(method, timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    try {
      for (let attempt = 0; ; attempt++) {
        // An initialize is the renewal itself: it never waits for one.
        if (this.session.needed && method !== "initialize") await this.session.renew(signal);
        const sentIn = this.session.generation;
        try {
          return await this.connection.request(method, params, { signal });
        } catch (error) {
          if (!(error instanceof McpError && error.sessionExpired) || method === "initialize") throw error;
          this.session.expired(sentIn);
          if (attempt > 0) {
            throw McpError.closed(`the server at ${error.url} expired the session, then refused the new one too (404 twice)`);
          }
          log.debug(`${this.transport.description}: the session expired; starting a new one`);
        }
      }
    } catch (error) {
      if (timeout.signal.aborted) throw McpError.timeout(method, timeoutMs);
      if (options.signal?.aborted) throw McpError.cancelled(method);
      throw error;
    } finally {
      this.timeouts.release(timeout);
    }
  }

  private rejectTool(rejected: RejectedTool): void {
    if (this.options.onRejectedTool) this.options.onRejectedTool(rejected);
    // Not the transport's description: an HTTP URL may carry a token in its query.
    else log.warn(`MCP tool '${rejected.name}' is left out: ${rejected.reason}`);
  }

  private answerServerRequest(request: JsonRpcRequest): unknown {
    if (request.method === "ping") return {};
    // We declare no client capabilities (sampling, roots, elicitation): refuse, never stay silent.
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/tools/list_changed") this.toolsCache = undefined;
    log.debug(`notification from ${this.transport.description}: ${notification.method}`);
    this.options.onNotification?.(notification);
  }
}
