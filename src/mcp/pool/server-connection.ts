import type { ToolRegistry } from "../../agent/tool-registry.ts";
import { log } from "../../log.ts";
import type { AuthContext } from "../auth/server-authorizer.ts";
import type { SignInInteraction } from "../auth/sign-in.ts";
import { McpClient, type McpClientOptions } from "../client/mcp-client.ts";
import { entrySecretValues, redactSecrets } from "../config/entry-secrets.ts";
import type { ServerConfig, ServerEntry } from "../config/server-config.ts";
import { failedAt, McpError } from "../mcp-error.ts";
import type { ToolDefinition } from "../protocol.ts";
import { createTransport, type TransportContext } from "../transport/create-transport.ts";
import type { Transport } from "../transport/transport.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import type { ServerConnectionOptions } from "./server-connection-options.ts";
import { lendInteraction } from "./server-sign-in.ts";
import { ServerEvents, type ServerEventMap, type ServerEventName } from "./server-events.ts";
import { ServerNews } from "./server-news.ts";
import { failureOf, filterTools, initialStatus, lastErrorOf, type ServerStatus } from "./server-status.ts";

/**
 * One configured server's life: its entry, its client while there is one, and its status (data, for
 * `mcp list` and `/mcp`). Connects it, notices when it goes away by itself (FAILED at once with why,
 * its failures and stderr tail with the entry's secrets masked), restarts it when asked or after a
 * crash, and keeps its tools current while it is connected. The pool holds one per configured server;
 * the keeper one per warm connection. Never throws from connect or restart: a failure is in the status.
 */
export class ServerConnection {
  /** Its entry; `/mcp disable` and `enable` replace it by one whose `disabled` says so. */
  private configured: ServerEntry;
  private current: McpClient | undefined;
  private state: ServerStatus;
  /** Clients that went away, still closing: close waits for them. */
  private readonly retiring = new Set<Promise<void>>();
  private closing: Promise<void> | undefined;
  private readonly events: ServerEvents;
  private readonly news: ServerNews;
  private readonly makeTransport: (config: ServerConfig, context: TransportContext) => Transport;
  private readonly warn: (message: string) => void;
  private readonly clock: Clock;

  constructor(
    entry: ServerEntry,
    private readonly options: ServerConnectionOptions = {},
  ) {
    this.configured = entry;
    this.state = initialStatus(entry);
    this.events = options.events ?? new ServerEvents();
    this.makeTransport = options.createTransport ?? createTransport;
    this.warn = options.onWarning ?? ((message) => log.warn(message));
    this.clock = options.clock ?? systemClock;
    this.news = new ServerNews({
      server: entry.name,
      events: this.events,
      warn: this.warn,
      connected: () => this.state.state === "connected",
      closing: () => this.closing !== undefined,
      refreshTools: () => this.refreshTools(),
    });
  }

  get entry(): ServerEntry {
    return this.configured;
  }

  get status(): ServerStatus {
    return this.state;
  }

  /**
   * `/mcp disable`: its client closed and its tools out of every registry at once; DISABLED, and never
   * started (a connect, a reconnect, an automatic restart) until `enable`. False for a broken entry.
   */
  async disable(): Promise<boolean> {
    const entry = this.configured;
    if (!entry.ok) return false;
    this.configured = { ...entry, config: { ...entry.config, disabled: true } };
    this.options.restarts?.()?.reset(entry.name);
    // A connect under way sees it is no longer the current client and closes its own.
    const old = this.current;
    this.current = undefined;
    this.options.registrations?.unregister(this);
    this.state = { ...initialStatus(this.configured), ...lastErrorOf(this.state) };
    await old?.close().catch(() => {});
    return true;
  }

  /** `/mcp enable`: startable again, and connected at once; resolves with its new status, never rejects. */
  async enable(signal?: AbortSignal): Promise<ServerStatus> {
    const entry = this.configured;
    if (entry.ok && entry.config.disabled) this.configured = { ...entry, config: { ...entry.config, disabled: false } };
    return this.state.state === "disabled" ? this.restart("reconnect", signal) : this.state;
  }

  /** The live client while it is connected. */
  get client(): McpClient | undefined {
    return this.state.state === "connected" ? this.current : undefined;
  }

  /** Hears this connection's events (a pool's connections tell the pool's listeners instead); returns what stops it. */
  on<K extends ServerEventName>(name: K, listener: (event: ServerEventMap[K]) => void): () => void {
    return this.events.on(name, listener);
  }

  /** Its tools into `only`, or every registry of its registrations, if connected; how many. */
  registerTools(only?: ToolRegistry): number {
    const { entry, current: client, state: status } = this;
    if (status.state !== "connected" || !client || !this.options.registrations) return 0;
    return this.options.registrations.register(this, entry.name, status.tools, client, only);
  }

  /**
   * Connects the server (a usable entry only) and lists its tools; they join the registrations the
   * moment it is ready. Never rejects: a failure is in the status.
   */
  connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.attempt(options.signal, "start", this.options.auth);
  }

  /** One connect; `after` says which it is in the event it sends, `auth` may be lent a person (see restart). */
  private async attempt(signal: AbortSignal | undefined, after: "start" | "restart" | "reconnect", auth: AuthContext | undefined): Promise<void> {
    const { entry } = this;
    if (!entry.ok || entry.config.disabled || entry.trust || this.closing) return;
    const startedAt = this.clock.now();
    let { client, transport } = this.openClient(false, auth);
    const { name, scope, source, description } = this.state;
    const base = { name, scope, source, description, ...lastErrorOf(this.state) };
    try {
      try {
        await client.connect({ signal });
      } catch (error) {
        // Not while closing: close closes the client it saw, and would miss a new one.
        if (!(error instanceof McpError && error.kind === "probe-ended") || this.current !== client || this.closing) throw error;
        // A legacy server that does not survive a method it does not know: started again, it gets
        // `initialize` first, and its client remembers it as legacy, so the next start skips the probe.
        log.debug(`MCP server '${name}': ${redactSecrets(error.message, client.secretValues())}; starting it again, straight to initialize`);
        // The old process may take seconds to end (stdout closed, stdin EOF ignored): not waited for.
        this.retire(client);
        ({ client, transport } = this.openClient(true, auth));
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
      if (this.current !== client) return await client.close().catch(() => {});
      // Gone already (it crashed right after listing): a failed connect like any other.
      if (client.state.status === "failed") throw McpError.closed(client.state.reason);
      this.state = {
        ...base,
        state: "connected",
        tools,
        serverInfo: client.serverInfo,
        protocolVersion: client.protocolVersion ?? "",
        era: client.era,
        connectMs: Math.round(this.clock.now() - startedAt),
      };
      this.registerTools();
      this.events.emit("server", { kind: "connected", server: name, status: this.state, after });
    } catch (error) {
      if (this.current !== client) return await client.close().catch(() => {});
      const { reason, stderr } = failureOf(client, transport, error as Error);
      if (error instanceof McpError && error.kind === "needs-auth") {
        this.state = { ...base, state: "needs-auth", reason };
      } else {
        this.state = { ...base, state: "failed", reason, stderr };
      }
      await client.close();
      this.events.emit("server", { kind: "not-connected", server: name, status: this.state, after });
    }
  }

  /**
   * Connects it anew: closes its client, takes its tools out, connects, and puts its tools back;
   * a user's `reconnect` also tells the tools-changed listeners. Resolves with its new status; never
   * rejects. `interaction`: a person at hand while this connect runs, and only then (see ServerPool.reconnect).
   */
  async restart(after: "restart" | "reconnect", signal?: AbortSignal, interaction?: SignInInteraction): Promise<ServerStatus> {
    if (this.closing) return this.state;
    const old = this.current;
    this.current = undefined;
    await old?.close().catch(() => {});
    this.options.registrations?.unregister(this);
    this.state = { ...initialStatus(this.entry), ...lastErrorOf(this.state) };
    const { auth } = this.options;
    const lent = interaction && auth ? lendInteraction(auth, interaction) : undefined;
    try {
      await this.attempt(signal, after, lent?.auth ?? auth);
    } finally {
      lent?.end();
    }
    const status = this.state;
    // An automatic restart is told as a server event (the front end words it as a restart).
    if (status.state === "connected" && after === "reconnect") this.events.emit("tools-changed", { server: this.entry.name, tools: status.tools });
    return status;
  }

  /**
   * Lists the connected server's tools anew, past its client's cache, and puts them in place: for a
   * holder that could not hear `list_changed` for a while (the keeper keeps no stream open on an
   * idle HTTP connection). Rejects when the listing fails (the old tools stay), or when the server
   * is not connected.
   */
  async relistTools(options: { signal?: AbortSignal } = {}): Promise<void> {
    const { client } = this;
    if (!this.entry.ok || !client) throw McpError.closed(`MCP server '${this.entry.name}' is not connected`);
    client.forgetTools();
    this.replaceTools(client, filterTools(await client.listTools(options), this.entry.config));
  }

  /**
   * Whether a holder (the connection keeper, between its commands) uses the server's connection now;
   * goes to its client's transport, which keeps no stream open while idle (see Transport.setIdle).
   */
  setIdle(idle: boolean): void {
    this.current?.setIdle(idle);
  }

  /** Closes its client, and those still closing, then waits for its era memory writes. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= Promise.all([this.current?.close().catch(() => {}), ...this.retiring])
      .then(() => this.options.eraMemory?.settled())
      .then(() => {});
    return this.closing;
  }

  /** The server said its tools changed (ServerNews asks): listed again; a failed listing is a warning, the old tools stay. */
  private async refreshTools(): Promise<void> {
    const { entry, current: client } = this;
    if (!entry.ok || !client || this.state.state !== "connected") return;
    let tools: ToolDefinition[];
    try {
      tools = filterTools(await client.listTools(), entry.config);
    } catch (error) {
      this.warn(`MCP server '${entry.name}' said its tools changed, but listing them failed: ${(error as Error).message}`);
      return;
    }
    this.replaceTools(client, tools);
  }

  private replaceTools(client: McpClient, tools: ToolDefinition[]): void {
    // Gone, or replaced by a new connection, while listing: what this one listed no longer counts.
    if (this.state.state !== "connected" || this.current !== client) return;
    // Only a real change is news: a server may announce list_changed over and over with the same list.
    if (sameTools(this.state.tools, tools)) return;
    this.state = { ...this.state, tools };
    this.options.registrations?.unregister(this);
    this.registerTools();
    this.events.emit("tools-changed", { server: this.entry.name, tools });
  }

  /** A new transport and client for the (valid) entry, made the current client. */
  private openClient(skipProbe: boolean, auth: AuthContext | undefined): { client: McpClient; transport: Transport } {
    const entry = this.entry as Extract<ServerEntry, { ok: true }>;
    const transport = this.makeTransport(entry.config, { serverName: entry.name, auth });
    const options: McpClientOptions = {
      name: entry.name,
      timeoutMs: entry.config.timeout,
      roots: this.options.roots,
      elicitation: this.options.elicitation,
      relay: this.options.relay,
      inputRequestsTogether: this.options.inputRequestsTogether,
      eraMemory: this.options.eraMemory?.handleFor(entry.config),
      skipProbe,
      watchChanges: this.options.watchChanges ?? true,
      // The client masks them (and the credentials its transport sent) in everything the server says.
      secrets: () => entrySecretValues(entry),
      // Its log, its notifications and the tools it left out become this connection's events and warnings.
      ...this.news.listeners,
      onLost: (error) => this.lost(client, transport, error),
    };
    const client = new McpClient(transport, options);
    this.current = client;
    return { client, transport };
  }

  /**
   * The connected server went away by itself: FAILED at once with why (a stdio exit carries its code
   * and stderr tail), its tools out of every registry, its client closed; a server whose transport
   * can be started again (a crashed stdio process) is restarted if its holder says so.
   */
  private lost(client: McpClient, transport: Transport, error: Error): void {
    if (this.current !== client || this.state.state !== "connected" || this.closing) return;
    const { name, scope, source, description } = this.state;
    this.options.registrations?.unregister(this);
    const status = { name, scope, source, description, state: "failed" as const, ...failureOf(client, transport, error), lost: true };
    this.state = status;
    this.retire(client);
    const restartInMs = transport.restartable ? this.options.restarts?.()?.schedule(name, () => void this.restart("restart")) : undefined;
    this.events.emit("server", { kind: "lost", server: name, status, restartInMs });
  }

  /** Closes a client the connection holds no more, in the background; close waits for it (no orphaned process). */
  private retire(client: McpClient): void {
    const retiring = client.close().catch(() => {});
    this.retiring.add(retiring);
    void retiring.finally(() => this.retiring.delete(retiring));
  }
}

/**
 * Whether two listings are the same tools: names, descriptions, schemas, annotations and all, in
 * order, as the server wrote them (a server that reorders its keys each time makes news, no harm).
 */
function sameTools(before: readonly ToolDefinition[], after: readonly ToolDefinition[]): boolean {
  return before.length === after.length && JSON.stringify(before) === JSON.stringify(after);
}
