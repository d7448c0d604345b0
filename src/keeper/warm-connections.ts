import { log } from "../log.ts";
import type { EraMemory, ServerStatus, Transport, TransportContext } from "../mcp/index.ts";
import { McpError } from "../mcp/light-index.ts";
import { describeServer, type ServerConfig, type ServerEntry } from "../mcp/config/server-config.ts";
import type { CallToolResult } from "../mcp/protocol.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import { treeResidentBytes } from "../system/process-memory.ts";
import { connectionFingerprint, entryKey, FINGERPRINT_SHOWN } from "./connection-fingerprint.ts";
import { keepAliveMs } from "./connection-settings.ts";
import type { KeeperConnectionInfo, ServerRequest } from "./keeper-protocol.ts";
import { startWarm } from "./warm-connection-start.ts";
import { inUse, isAlive, isHttp, refusesSignIn, signedOut, type CallListener, type ConnectionListener, type Warm } from "./warm-connection.ts";

/** Past this many connections, the least recently used idle one is closed. */
export const MAX_WARM_CONNECTIONS = 64;
/**
 * Past this many connections of one entry (other environments, folders, roots or capabilities), its
 * least recently used idle one is closed: a day of terminals and folders does not pile up servers.
 */
export const MAX_CONNECTIONS_PER_ENTRY = 4;
/**
 * An idle HTTP connection unused for longer than this lists its tools again before its next command
 * (see reuse): long enough that the commands of a script share one listing, short enough that a
 * server that went away or forgot the session is found before the command uses it.
 */
export const RELIST_AFTER_IDLE_MS = 1000;

export interface WarmConnectionsOptions {
  version: string;
  clock?: Clock;
  /** Shared by every connection, so a server's era is probed once. */
  eraMemory?: EraMemory;
  maxConnections?: number;
  /** The keeper's own env, for CAT_CODE_KEEP_ALIVE when the command's launch env does not set it. */
  env?: Record<string, string | undefined>;
  createTransport?: (config: ServerConfig, context: TransportContext) => Transport;
  /** A connection went away (idle, dead, evicted): the keeper checks whether it is now empty. */
  onClosed?: () => void;
}

/**
 * The keeper's connections: per fingerprint (entry, launch context, roots, capabilities, version)
 * one connection to its server, reused while it lives, closed after its keep-alive without use. Only
 * CONNECTED ones are kept; one whose server has since died is replaced at the next `connect`.
 * While no command uses a connection it holds no stream open (an HTTP server can shut down
 * gracefully); an HTTP one idle for more than RELIST_AFTER_IDLE_MS therefore lists its tools again
 * before its next command, which also renews a session the server forgot, or gets a new connection
 * if the server is gone.
 */
export class WarmConnections {
  private readonly connections = new Map<string, Warm>();
  /** Taken out of `connections` while commands still use them (see retire): closed when the last is done. */
  private readonly retiring = new Set<Warm>();
  private readonly closing = new Set<Promise<void>>();
  /** Sockets that have ended: a connect still under way for one (listing tools again) must not hold its connection. */
  private readonly endedSockets = new WeakSet<object>();
  private readonly clock: Clock;
  private readonly maxConnections: number;
  private closed = false;

  constructor(private readonly options: WarmConnectionsOptions) {
    this.clock = options.clock ?? systemClock;
    this.maxConnections = options.maxConnections ?? MAX_WARM_CONNECTIONS;
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Connects what is missing, in parallel, and reuses the rest. Statuses come back in the order
   * asked, with each fingerprint (to call the server by); never rejects.
   */
  async connect(
    servers: ServerRequest[],
    roots: string[],
    listener: ConnectionListener,
    /** Whether the servers are told the command answers their questions (see the `connect` request). */
    elicitation = true,
    /** The command calls a tool next (see the request's `callFollows`): its socket holds the connections until then. */
    callFollows = false,
  ): Promise<Array<{ status: ServerStatus; fingerprint: string }>> {
    return Promise.all(servers.map((request) => this.connectOne(request, roots, listener, elicitation, callFollows)));
  }

  private async connectOne(
    request: ServerRequest,
    roots: string[],
    listener: ConnectionListener,
    elicitation: boolean,
    callFollows: boolean,
  ): Promise<{ status: ServerStatus; fingerprint: string }> {
    const fingerprint = connectionFingerprint(request, roots, elicitation, this.options.version);
    let warm = this.connections.get(fingerprint);
    if (warm && !isAlive(warm)) {
      this.close(warm, "its server is gone");
      warm = undefined;
    }
    // Its requests would go without a token from now on: connected anew, it is NEEDS-AUTH, as a command would see it.
    if (warm && signedOut(warm)) {
      this.close(warm, "its sign-in was forgotten (mcp logout)");
      warm = undefined;
    }
    if (warm && !(await this.reuse(warm, listener))) {
      this.close(warm, "listing its tools again failed");
      // Another command may have connected it anew meanwhile: that one is shared.
      warm = this.connections.get(fingerprint);
    }
    // The latest command's choice: `--keep-alive` does not tell connections apart (see connectionFingerprint).
    const keepAliveMs = this.keepAliveOf(request);
    try {
      warm ??= this.open(request, roots, fingerprint, elicitation, keepAliveMs);
    } catch (error) {
      // A root that is gone since the command checked it: that server fails, as a pool's would.
      const reason = `cannot start it in the keeper: ${(error as Error).message}`;
      return { status: { ...asRequested(request.entry), state: "failed", reason, stderr: [] }, fingerprint };
    }
    warm.keepAliveMs = keepAliveMs;
    this.use(warm, listener);
    if (callFollows && !this.endedSockets.has(listener.socket)) warm.holders.add(listener.socket);
    let status: ServerStatus;
    try {
      await warm.ready;
      // The connection's status now, not the one `ready` resolved with: a reused connection may have re-listed.
      status = warm.connection.status;
    } finally {
      this.release(warm, listener);
    }
    for (const message of warm.warnings) listener.onWarning?.(message);
    if (status.state !== "connected") this.close(warm, status.state);
    return { status: { ...status, ...asRequested(request.entry) }, fingerprint };
  }

  /** Calls a tool of a connection `connect` returned; rejects with the server's McpError, as a client would. */
  async call(fingerprint: string, tool: string, args: Record<string, unknown>, listener: CallListener): Promise<CallToolResult> {
    const warm = this.connections.get(fingerprint);
    const client = warm && !warm.connecting ? warm.connection.client : undefined;
    if (!warm || !client) throw McpError.closed("the server's connection in the keeper was closed; run the command again");
    warm.calls++;
    this.use(warm, listener);
    try {
      return await client.callTool(tool, args, { signal: listener.signal, onProgress: (update) => listener.onProgress(update) });
    } catch (error) {
      if (refusesSignIn(error)) this.retire(warm, "the server refused its sign-in");
      // Gone within RELIST_AFTER_IDLE_MS of its last use (no listing found it): not kept for the next command.
      else if (error instanceof McpError && error.kind === "unreachable") this.retire(warm, "its server cannot be reached");
      throw error;
    } finally {
      // The call its connect held the connection for is done.
      warm.holders.delete(listener.socket);
      this.release(warm, listener);
    }
  }

  /** A command's socket ended: what it held for a call it never made is no longer in use. */
  letGo(socket: object): void {
    this.endedSockets.add(socket);
    for (const warm of [...this.connections.values(), ...this.retiring]) {
      if (warm.holders.delete(socket)) this.whenUnused(warm);
    }
  }

  info(): KeeperConnectionInfo[] {
    const now = this.clock.now();
    const warms = [...this.connections.values()];
    const memory = treeResidentBytes(warms.flatMap((warm) => serverPid(warm) ?? []));
    return warms.map((warm) => {
      const pid = serverPid(warm);
      const rssBytes = pid === undefined ? undefined : memory.get(pid);
      const { entry } = warm.request;
      const state = warm.connecting ? "pending" : isAlive(warm) ? "connected" : "failed";
      return {
        name: entry.name,
        description: entry.ok ? describeServer(entry.config, entry.raw) : "",
        state,
        ageMs: now - warm.createdAt,
        idleMs: inUse(warm) ? 0 : now - warm.lastUsed,
        calls: warm.calls,
        fingerprint: warm.fingerprint.slice(0, FINGERPRINT_SHOWN),
        ...(rssBytes === undefined ? {} : { rssBytes }),
      };
    });
  }

  /**
   * Takes every connection of the server of this name out (`mcp keeper stop <name>`, `mcp logout`):
   * no command gets them from now on, so the count is the answer at once. Their servers are closed
   * in the background, as at `stop`: one that lingers on close (2 s + 2 s until it is killed) must
   * not make the command think the keeper hangs.
   */
  closeServer(name: string): number {
    const named = [...this.connections.values()].filter((warm) => warm.request.entry.name === name);
    for (const warm of named) void this.close(warm, "asked to");
    return named.length;
  }

  /** Closes every connection (their servers end, as on a command's exit); safe to call twice. */
  async closeAll(): Promise<void> {
    this.closed = true;
    for (const warm of [...this.connections.values(), ...this.retiring]) this.close(warm, "the keeper stops");
    await Promise.all([...this.closing]);
  }

  private open(request: ServerRequest, roots: string[], fingerprint: string, elicitation: boolean, keepAliveMs: number): Warm {
    const key = entryKey(request);
    this.evictIfFull(key);
    const { eraMemory, createTransport } = this.options;
    const warm = startWarm({ request, roots, fingerprint, entryKey: key, elicitation, now: this.clock.now(), keepAliveMs, connect: !this.closed, eraMemory, createTransport });
    this.connections.set(fingerprint, warm);
    log.debug(`keeper: connecting '${request.entry.name}' (${fingerprint.slice(0, FINGERPRINT_SHOWN)}), kept ${keepAliveMs / 1000} s without use`);
    return warm;
  }

  private keepAliveOf({ entry, launch }: ServerRequest): number {
    return keepAliveMs(entry, launch.env, this.options.env ?? process.env);
  }

  /**
   * Whether an existing connection can serve a command. One in use, used moments ago, or not over
   * HTTP, can; an HTTP one idle for longer lists its tools first: with no stream open while idle it
   * heard no `list_changed`, and the server may have gone (false: the caller connects anew) or
   * forgotten the session (the client renews it). Commands that come at once share one listing.
   */
  private async reuse(warm: Warm, listener: ConnectionListener): Promise<boolean> {
    if (!isHttp(warm.request.entry)) return true;
    const fresh = warm.connecting || inUse(warm) || this.clock.now() - warm.lastUsed <= RELIST_AFTER_IDLE_MS;
    if (!warm.relisting && fresh) return true;
    warm.relisting ??= this.relist(warm, listener).finally(() => (warm.relisting = undefined));
    return warm.relisting;
  }

  /** In use from here on (connectOne releases it), so its stream opens once, not again after the listing. */
  private async relist(warm: Warm, listener: ConnectionListener): Promise<boolean> {
    this.use(warm, listener);
    try {
      await warm.connection.relistTools();
      return true;
    } catch (error) {
      log.debug(`keeper: '${warm.request.entry.name}' (${warm.fingerprint.slice(0, FINGERPRINT_SHOWN)}) could not list its tools after idling: ${(error as Error).message}; connecting anew`);
      this.release(warm, listener);
      return false;
    }
  }

  /** A command uses the connection: no idle timer, and its streams open again if it was idle. */
  private use(warm: Warm, listener: ConnectionListener): void {
    if (!inUse(warm)) warm.connection.setIdle(false);
    warm.listeners.add(listener);
    warm.lastUsed = this.clock.now();
    if (warm.idleTimer) this.clock.clearTimeout(warm.idleTimer);
    warm.idleTimer = undefined;
  }

  private release(warm: Warm, listener: ConnectionListener): void {
    warm.listeners.delete(listener);
    this.whenUnused(warm);
  }

  /** No command uses it any more: idle (no stream open, its keep-alive counting), or closed if retired. */
  private whenUnused(warm: Warm): void {
    warm.lastUsed = this.clock.now();
    // Retired: no call can reach it any more, so a socket that only holds it is not waited for.
    if (this.retiring.has(warm)) return void (warm.listeners.size === 0 && this.close(warm, "its last command is done"));
    if (inUse(warm)) return;
    warm.connection.setIdle(true);
    if (this.connections.get(warm.fingerprint) !== warm) return;
    warm.idleTimer = this.clock.setTimeout(() => this.close(warm, "idle"), warm.keepAliveMs);
  }

  /** Room for one more connection of this entry: one past either bound closes the least recently used idle one. */
  private evictIfFull(key: string): void {
    const ofEntry = [...this.connections.values()].filter((warm) => warm.entryKey === key);
    if (ofEntry.length >= MAX_CONNECTIONS_PER_ENTRY) this.closeOldestIdle(ofEntry, `more than ${MAX_CONNECTIONS_PER_ENTRY} connections of one entry`);
    if (this.connections.size >= this.maxConnections) this.closeOldestIdle([...this.connections.values()], `more than ${this.maxConnections} connections`);
  }

  /** One in use, or still connecting, is never closed for room: the bound is passed until a later connection opens. */
  private closeOldestIdle(warms: Warm[], why: string): void {
    let oldest: Warm | undefined;
    for (const warm of warms) {
      if (!inUse(warm) && !warm.connecting && (!oldest || warm.lastUsed < oldest.lastUsed)) oldest = warm;
    }
    if (oldest) this.close(oldest, why);
  }

  /**
   * No new command gets this connection; it is closed once the commands using it are done (a call
   * under way on it is not cut short), at once if none is.
   */
  private retire(warm: Warm, why: string): void {
    if (this.connections.get(warm.fingerprint) !== warm) return;
    this.connections.delete(warm.fingerprint);
    this.retiring.add(warm);
    log.debug(`keeper: retiring '${warm.request.entry.name}' (${warm.fingerprint.slice(0, FINGERPRINT_SHOWN)}): ${why}; closed when its commands are done`);
  }

  private close(warm: Warm, why: string): Promise<void> {
    if (warm.idleTimer) this.clock.clearTimeout(warm.idleTimer);
    warm.idleTimer = undefined;
    if (this.connections.get(warm.fingerprint) === warm) this.connections.delete(warm.fingerprint);
    else if (!this.retiring.delete(warm)) return Promise.resolve();
    log.debug(`keeper: closing '${warm.request.entry.name}' (${warm.fingerprint.slice(0, FINGERPRINT_SHOWN)}): ${why}`);
    const closing = warm.connection.close();
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
    this.options.onClosed?.();
    return closing;
  }
}

/** A stdio connection's server process (an HTTP one has none of its own). */
function serverPid(warm: Warm): number | undefined {
  const pid = warm.transport && "pid" in warm.transport ? warm.transport.pid : undefined;
  return typeof pid === "number" ? pid : undefined;
}

/** What a status says of the entry as this command gave it (its file, its text as written). */
function asRequested(entry: ServerEntry): Pick<ServerStatus, "name" | "scope" | "source" | "description"> {
  return { name: entry.name, scope: entry.scope, source: entry.source, description: entry.ok ? describeServer(entry.config, entry.raw) : "" };
}

