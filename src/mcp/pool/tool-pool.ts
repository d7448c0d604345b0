import type { ToolRegistry } from "../../agent/tool-registry.ts";
import { log } from "../../log.ts";
import type { AuthContext } from "../auth/server-authorizer.ts";
import type { SignInInteraction } from "../auth/sign-in.ts";
import type { ElicitationHandler } from "../client/elicitation.ts";
import { McpClient, type McpClientOptions, type ServerFeature } from "../client/mcp-client.ts";
import type { RootsProvider } from "../client/roots.ts";
import { serverLogDebugLine } from "../client/server-log-debug.ts";
import type { ServerLogEntry } from "../client/server-log.ts";
import { entrySecretValues, redactSecrets } from "../config/entry-secrets.ts";
import type { ServerConfig, ServerEntry } from "../config/server-config.ts";
import { failedAt, McpError } from "../mcp-error.ts";
import type { ToolDefinition } from "../protocol.ts";
import { createTransport, type TransportContext } from "../transport/create-transport.ts";
import { StdioTransport } from "../transport/stdio-transport.ts";
import type { Transport } from "../transport/transport.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import { AutoRestarts } from "./auto-restarts.ts";
import { EraMemoryHandles } from "./era-memory-handles.ts";
import { lendInteraction } from "./server-sign-in.ts";
import { ServerEvents, type ServerEvent } from "./server-events.ts";
import type { ToolPoolOptions } from "./tool-pool-options.ts";
import { ToolRegistrations } from "./tool-registrations.ts";
import { filterTools, initialStatus, type ServerStatus } from "./server-status.ts";

export type { ServerState, ServerStatus } from "./server-status.ts";
export type { ServerEvent } from "./server-events.ts";
export type { ToolPoolOptions } from "./tool-pool-options.ts";

interface Connection {
  entry: ServerEntry;
  client?: McpClient;
  status: ServerStatus;
  /** A re-listing under way, and whether another change was announced while it ran. */
  refreshing?: Promise<void>;
  refreshAgain?: boolean;
  /** Tools already warned about as left out, so a server that re-lists often is not a stream of warnings. */
  rejectedTools: Set<string>;
}


/** The longest URI a resource update may name; a longer one is dropped. */
const MAX_UPDATED_URI_CHARS = 8192;

/** How many stderr lines a failure shows when the reason does not already carry them. */
const STDERR_LINES_IN_STATUS = 10;

/**
 * All configured servers. Connects them side by side; one server's failure (a bad entry, a missing
 * command, a failed handshake) never touches another. Owns every client and closes them all.
 */
export class McpToolPool {
  private readonly connections: Connection[];
  private readonly makeTransport: (config: ServerConfig, context: TransportContext) => Transport;
  private readonly auth: AuthContext | undefined;
  private readonly roots: RootsProvider | undefined;
  private readonly declaresElicitation: boolean;
  private readonly eraMemory: EraMemoryHandles | undefined;
  private readonly watchChanges: boolean;
  private readonly warn: (message: string) => void;
  private readonly registrations = new ToolRegistrations();
  private readonly events = new ServerEvents();
  private readonly clock: Clock;
  private restarts: AutoRestarts | undefined;
  /** Clients of servers that went away, still closing: closeAll waits for them. */
  private readonly retiring = new Set<Promise<void>>();
  private closing: Promise<void> | undefined;
  /** Hears that a server's tools changed and were registered anew (the REPL says so). */
  onToolsChanged?: (server: string, tools: ToolDefinition[]) => void;
  /** Hears `notifications/resources/updated` from any server (for a URI it was subscribed to). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** Hears every server's log messages (the REPL shows warnings and worse). All go to the debug log. */
  onServerLog?: (entry: ServerLogEntry) => void;
  /** Answers every server's questions; see ToolPoolOptions.elicitation. */
  elicitation: ElicitationHandler | undefined;

  constructor(entries: ServerEntry[], options: ToolPoolOptions = {}) {
    this.makeTransport = options.createTransport ?? createTransport;
    this.roots = options.roots;
    this.auth = options.auth;
    this.onServerLog = options.onServerLog;
    this.elicitation = options.elicitation;
    this.declaresElicitation = options.elicitation !== undefined;
    this.eraMemory = options.eraMemory && new EraMemoryHandles(options.eraMemory);
    this.watchChanges = options.watchChanges ?? true;
    this.warn = options.onWarning ?? ((message) => log.warn(message));
    this.clock = options.clock ?? systemClock;
    if (options.restartCrashed) this.restartCrashedServers(options.restartCrashed.delaysMs);
    this.connections = entries.map((entry) => ({ entry, status: initialStatus(entry), rejectedTools: new Set() }));
  }

  get size(): number {
    return this.connections.length;
  }

  /**
   * Connects every usable server in parallel and lists its tools; each one's tools join the
   * registries (see registerInto) the moment it is ready, not when the slowest is. Never rejects.
   */
  async connectAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    await Promise.all(this.connections.map((connection) => this.connect(connection, options.signal, "start")));
  }

  /**
   * From now on a stdio server that crashes after it was connected is restarted after these delays
   * (default: once, after 1 s); otherwise a crash leaves it FAILED until `reconnect`. The agent
   * session turns it on; one-shot commands and the keeper (which replaces a dead connection itself) do not.
   */
  restartCrashedServers(delaysMs?: readonly number[]): void {
    this.restarts ??= new AutoRestarts(this.clock, delaysMs);
  }

  /** Hears every server that connects, fails or goes away from now on; returns what stops it. */
  onServerEvent(listener: (event: ServerEvent) => void): () => void {
    return this.events.listen(listener);
  }

  status(): ServerStatus[] {
    return this.connections.map((connection) => connection.status);
  }

  /** The connected servers whose client offers the feature (resources, prompts...), in config order. */
  serversOffering(feature: ServerFeature): Array<{ name: string; client: McpClient }> {
    const offering: Array<{ name: string; client: McpClient }> = [];
    for (const { entry, client, status } of this.connections) {
      // The client's own state too: a server that crashed, or a closed pool, is not offered.
      if (status.state === "connected" && client?.state.status === "connected" && client.offers(feature)) offering.push({ name: entry.name, client });
    }
    return offering;
  }

  /** The live client of a connected server. */
  client(name: string): McpClient | undefined {
    const connection = this.connections.find((c) => c.entry.name === name);
    return connection?.status.state === "connected" ? connection.client : undefined;
  }

  /**
   * Registers every tool of every connected server as `mcp__<server>__<tool>`. A name that is taken
   * (two tools that sanitize alike, or a cut name) gets a stable hash suffix and a warning, so both
   * tools stay callable. The registry is kept: a server that connects later registers its tools
   * there as soon as it is ready, one that announces `tools/list_changed` has them replaced, and one
   * that goes away takes them out. Returns the number of tools registered now.
   */
  registerInto(registry: ToolRegistry): number {
    this.registrations.add(registry);
    let count = 0;
    for (const connection of this.connections) count += this.registerTools(connection, registry);
    return count;
  }

  /** A connected server's tools into `only`, or every kept registry. */
  private registerTools(connection: Connection, only?: ToolRegistry): number {
    const { entry, client, status } = connection;
    if (status.state !== "connected" || !client) return 0;
    return this.registrations.register(connection, entry.name, status.tools, client, only);
  }

  /** OAuth for this pool's HTTP servers (a sign-in uses the same store and hint). */
  get authContext(): AuthContext | undefined {
    return this.auth;
  }

  /** The entry of a configured server. */
  entry(name: string): ServerEntry | undefined {
    return this.connections.find((c) => c.entry.name === name)?.entry;
  }

  /**
   * Connects one server anew (`/mcp reconnect`, or after a sign-in gave it tokens): closes its
   * client, connects with the pool's auth, and puts its tools in place of the old ones in every
   * registry, telling onToolsChanged. A crash after it gets its automatic restart again. Resolves
   * with its new status; never rejects (a failure is in the status). `interaction`: a person at hand
   * while this connect runs, and only then (the reconnect after `/mcp login`, so a server that names
   * a new authorization server once it sees the new token, SEP-2352, is signed in to there too).
   */
  async reconnect(name: string, options: { signal?: AbortSignal; interaction?: SignInInteraction } = {}): Promise<ServerStatus | undefined> {
    const connection = this.connections.find((c) => c.entry.name === name);
    return connection && this.userRestart(connection, options.signal, options.interaction);
  }

  /** `/mcp reconnect` without a name: every server that failed (a crash, a failed connect), side by side. */
  async reconnectFailed(options: { signal?: AbortSignal } = {}): Promise<ServerStatus[]> {
    const failed = this.connections.filter((c) => c.status.state === "failed");
    return Promise.all(failed.map((connection) => this.userRestart(connection, options.signal)));
  }

  private userRestart(connection: Connection, signal: AbortSignal | undefined, interaction?: SignInInteraction): Promise<ServerStatus> {
    this.restarts?.reset(connection.entry.name);
    return this.restart(connection, "reconnect", signal, interaction);
  }

  private async restart(connection: Connection, after: "restart" | "reconnect", signal?: AbortSignal, interaction?: SignInInteraction): Promise<ServerStatus> {
    if (this.closing) return connection.status;
    const old = connection.client;
    connection.client = undefined;
    await old?.close().catch(() => {});
    this.registrations.unregister(connection);
    connection.status = { ...initialStatus(connection.entry), ...lastErrorOf(connection.status) };
    const lent = interaction && this.auth ? lendInteraction(this.auth, interaction) : undefined;
    try {
      await this.connect(connection, signal, after, lent?.auth);
    } finally {
      lent?.end();
    }
    const { status } = connection;
    // An automatic restart is told as a server event (the front end words it as a restart).
    if (status.state === "connected" && after === "reconnect") this.onToolsChanged?.(connection.entry.name, status.tools);
    return status;
  }

  /** A server said its tools changed: list them again (once more if it says so meanwhile). */
  private toolsChanged(connection: Connection): void {
    connection.refreshAgain = true;
    connection.refreshing ??= (async () => {
      while (connection.refreshAgain && !this.closing) {
        connection.refreshAgain = false;
        await this.refreshTools(connection);
      }
      connection.refreshing = undefined;
    })();
  }

  private async refreshTools(connection: Connection): Promise<void> {
    const { entry, client } = connection;
    if (!entry.ok || !client || connection.status.state !== "connected") return;
    let tools: ToolDefinition[];
    try {
      tools = filterTools(await client.listTools(), entry.config);
    } catch (error) {
      this.warn(`MCP server '${entry.name}' said its tools changed, but listing them failed: ${(error as Error).message}`);
      return;
    }
    this.replaceTools(connection, client, tools);
  }

  /**
   * Lists a connected server's tools anew, past its client's cache, and puts them in place: for a
   * holder that could not hear `list_changed` for a while (the keeper keeps no stream open on an
   * idle HTTP connection). Rejects when the listing fails (the old tools stay), or when the server
   * is not connected.
   */
  async relistTools(name: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    const connection = this.connections.find((c) => c.entry.name === name);
    const client = connection?.status.state === "connected" ? connection.client : undefined;
    if (!connection?.entry.ok || !client) throw McpError.closed(`MCP server '${name}' is not connected`);
    client.forgetTools();
    this.replaceTools(connection, client, filterTools(await client.listTools(options), connection.entry.config));
  }

  private replaceTools(connection: Connection, client: McpClient, tools: ToolDefinition[]): void {
    const { entry } = connection;
    // Gone, or replaced by a new connection, while listing: what this one listed no longer counts.
    if (connection.status.state !== "connected" || connection.client !== client) return;
    // Only a real change is news: a server may announce list_changed over and over with the same list.
    if (sameTools(connection.status.tools, tools)) return;
    connection.status = { ...connection.status, tools };
    this.registrations.unregister(connection);
    this.registerTools(connection);
    this.onToolsChanged?.(entry.name, tools);
  }

  /**
   * Whether a holder (the connection keeper, between its commands) uses the server's connection now;
   * goes to its client's transport, which keeps no stream open while idle (see Transport.setIdle).
   */
  setIdle(name: string, idle: boolean): void {
    this.connections.find((c) => c.entry.name === name)?.client?.setIdle(idle);
  }

  /** Closes every client, in parallel. Safe to call twice. */
  closeAll(): Promise<void> {
    this.restarts?.cancelAll();
    this.closing ??= Promise.all([...this.connections.map((c) => c.client?.close().catch(() => {})), ...this.retiring])
      .then(() => this.eraMemory?.settled())
      .then(() => {});
    return this.closing;
  }

  private async connect(
    connection: Connection,
    signal: AbortSignal | undefined,
    after: "start" | "restart" | "reconnect",
    auth = this.auth,
  ): Promise<void> {
    const { entry } = connection;
    if (!entry.ok || entry.config.disabled || entry.trust || this.closing) return;
    const startedAt = this.clock.now();
    let { client, transport } = this.openClient(connection, false, auth);
    const { name, scope, source, description } = connection.status;
    const base = { name, scope, source, description, ...lastErrorOf(connection.status) };
    try {
      try {
        await client.connect({ signal });
      } catch (error) {
        // Not while closing: closeAll closes the clients it saw, and would miss a new one.
        if (!(error instanceof McpError && error.kind === "probe-ended") || connection.client !== client || this.closing) throw error;
        // A legacy server that does not survive a method it does not know: started again, it gets
        // `initialize` first, and its client remembers it as legacy, so the next start skips the probe.
        log.debug(`MCP server '${name}': ${redactSecrets(error.message, client.secretValues())}; starting it again, straight to initialize`);
        // The old process may take seconds to end (stdout closed, stdin EOF ignored): not waited for.
        this.retire(client);
        ({ client, transport } = this.openClient(connection, true, auth));
        await client.connect({ signal });
      }
      let tools: ToolDefinition[];
      try {
        tools = filterTools(await client.listTools({ signal }), entry.config);
      } catch (error) {
        throw failedAt("tools/list", error);
      }
      // Replaced meanwhile (a reconnect): the new connection speaks for the server; this one is closed,
      // or its process would outlive the pool.
      if (connection.client !== client) return await client.close().catch(() => {});
      // Gone already (it crashed right after listing): a failed connect like any other.
      if (client.state.status === "failed") throw McpError.closed(client.state.reason);
      connection.status = {
        ...base,
        state: "connected",
        tools,
        serverInfo: client.serverInfo,
        protocolVersion: client.protocolVersion ?? "",
        era: client.era,
        connectMs: Math.round(this.clock.now() - startedAt),
      };
      this.registerTools(connection);
      this.events.emit({ kind: "connected", server: name, status: connection.status, after });
    } catch (error) {
      if (connection.client !== client) return await client.close().catch(() => {});
      const { reason, stderr } = failureOf(client, transport, error as Error);
      if (error instanceof McpError && error.kind === "needs-auth") {
        connection.status = { ...base, state: "needs-auth", reason };
      } else {
        connection.status = { ...base, state: "failed", reason, stderr };
      }
      await client.close();
      this.events.emit({ kind: "not-connected", server: name, status: connection.status, after });
    }
  }

  /** A new transport and client for the connection's (valid) entry, made its current client. */
  private openClient(connection: Connection, skipProbe: boolean, auth: AuthContext | undefined): { client: McpClient; transport: Transport } {
    const entry = connection.entry as Extract<ServerEntry, { ok: true }>;
    const transport = this.makeTransport(entry.config, { serverName: entry.name, auth });
    const options: McpClientOptions = {
      name: entry.name,
      timeoutMs: entry.config.timeout,
      roots: this.roots,
      // Bound late: the REPL sets its form after the pool exists; a question goes to whoever answers now.
      elicitation: this.declaresElicitation ? (request, signal) => this.answer(request, signal) : undefined,
      eraMemory: this.eraMemory?.handleFor(entry.config),
      skipProbe,
      watchChanges: this.watchChanges,
      // The client masks them (and the credentials its transport sent) in everything the server says.
      secrets: () => entrySecretValues(entry),
      onLog: (logged) => this.serverLog({ ...logged, server: entry.name }),
      onNotification: (notification) => {
        if (notification.method === "notifications/tools/list_changed") this.toolsChanged(connection);
        if (notification.method === "notifications/resources/updated") this.resourceUpdated(connection, notification.params);
      },
      onRejectedTool: (tool) => {
        const key = `${tool.name}\u0000${tool.reason}`;
        if (connection.rejectedTools.has(key)) return;
        connection.rejectedTools.add(key);
        this.warn(`MCP tool '${tool.name}' of server '${entry.name}' is left out: ${tool.reason}; the server's other tools work`);
      },
      onLost: (error) => this.lost(connection, client, transport, error),
    };
    const client = new McpClient(transport, options);
    connection.client = client;
    return { client, transport };
  }

  /**
   * A connected server went away by itself: FAILED at once with why (a stdio exit carries its code
   * and stderr tail), its tools out of every registry, its client closed; a crashed stdio server is
   * restarted once if the pool says so.
   */
  private lost(connection: Connection, client: McpClient, transport: Transport, error: Error): void {
    if (connection.client !== client || connection.status.state !== "connected" || this.closing) return;
    const { name, scope, source, description } = connection.status;
    this.registrations.unregister(connection);
    const status = { name, scope, source, description, state: "failed" as const, ...failureOf(client, transport, error), lost: true };
    connection.status = status;
    this.retire(client);
    const restartInMs =
      transport instanceof StdioTransport ? this.restarts?.schedule(name, () => void this.restart(connection, "restart")) : undefined;
    this.events.emit({ kind: "lost", server: name, status, restartInMs });
  }

  /** Closes a client no connection holds any more, in the background; closeAll waits for it (no orphaned process). */
  private retire(client: McpClient): void {
    const retiring = client.close().catch(() => {});
    this.retiring.add(retiring);
    void retiring.finally(() => this.retiring.delete(retiring));
  }

  /**
   * A connected server's `notifications/resources/updated` with a string `uri` (of a sane length:
   * it reaches a terminal line) reaches onResourceUpdated; others are dropped.
   */
  private resourceUpdated(connection: Connection, params: unknown): void {
    const uri = isPlainObject(params) ? params.uri : undefined;
    if (connection.status.state !== "connected" || typeof uri !== "string" || uri.length > MAX_UPDATED_URI_CHARS) {
      log.debug(`MCP server '${connection.entry.name}': dropped a notifications/resources/updated without a usable uri, or before it was connected`);
      return;
    }
    this.onResourceUpdated?.(connection.entry.name, uri);
  }

  private answer(...[request, signal]: Parameters<ElicitationHandler>): ReturnType<ElicitationHandler> {
    return this.elicitation ? this.elicitation(request, signal) : Promise.resolve({ action: "decline" });
  }

  private serverLog(entry: ServerLogEntry): void {
    log.debug(serverLogDebugLine(entry));
    this.onServerLog?.(entry);
  }
}

/** A stdio server's last stderr lines, unless the reason quotes them already (an exit does): said once. */
function stderrFor(transport: Transport, reason: string): string[] {
  const stderr = transport instanceof StdioTransport ? transport.stderr.tail(STDERR_LINES_IN_STATUS) : [];
  return reason.includes(stderr.at(-1) ?? "\0") ? [] : stderr;
}

/**
 * Why a server failed, as every front end and the model's note show it: the entry's secrets and
 * the credentials its transport sent masked (the client's `secretValues`), since a lower layer's
 * error may quote the expanded url or a header, and a server may echo one (the client masked its
 * errors already; stderr not).
 */
function failureOf(client: McpClient, transport: Transport, error: Error): { reason: string; stderr: string[] } {
  const secrets = client.secretValues();
  return { reason: redactSecrets(error.message, secrets), stderr: stderrFor(transport, error.message).map((line) => redactSecrets(line, secrets)) };
}

function lastErrorOf(status: ServerStatus): { lastError?: string } {
  // A failed status's reason is its last error; it is carried into the next status as lastError.
  if (status.state === "failed") return { lastError: status.reason };
  return status.lastError === undefined ? {} : { lastError: status.lastError };
}

/**
 * Whether two listings are the same tools: names, descriptions, schemas, annotations and all, in
 * order, as the server wrote them (a server that reorders its keys each time makes news, no harm).
 */
function sameTools(before: readonly ToolDefinition[], after: readonly ToolDefinition[]): boolean {
  return before.length === after.length && JSON.stringify(before) === JSON.stringify(after);
}
