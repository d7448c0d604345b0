import type { ToolRegistry } from "../../agent/tool-registry.ts";
import type { AuthContext } from "../auth/server-authorizer.ts";
import type { SignInInteraction } from "../auth/sign-in.ts";
import type { ElicitationHandler } from "../client/elicitation.ts";
import type { RequestRelay } from "../client/request-relay.ts";
import type { McpClient, ServerFeature } from "../client/mcp-client.ts";
import { SERVER_FEATURES } from "../client/server-features.ts";
import type { ServerEntry } from "../config/server-config.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import { AutoRestarts } from "./auto-restarts.ts";
import { EraMemoryHandles } from "./era-memory-handles.ts";
import { QuestionAnswerer } from "./question-answerer.ts";
import { ServerConnection } from "./server-connection.ts";
import { ServerEvents, type ServerEventMap, type ServerEventName } from "./server-events.ts";
import type { ServerPoolOptions } from "./server-pool-options.ts";
import { ToolRegistrations } from "./tool-registrations.ts";
import type { ServerStatus } from "./server-status.ts";

export type { ServerState, ServerStatus } from "./server-status.ts";
export type { ServerEvent, ServerEventMap, ServerEventName } from "./server-events.ts";
export type { ServerPoolOptions } from "./server-pool-options.ts";

/**
 * All configured servers, one ServerConnection each, in config order. Connects them side by side;
 * one server's failure (a bad entry, a missing command, a failed handshake) never touches another.
 * Keeps the registries their tools go into, tells its listeners what happens to any of them
 * (`on`), schedules crashed servers' restarts, and closes them all.
 */
export class ServerPool {
  private readonly connections: ServerConnection[];
  /** The connections of each name (a user's and a project's entry may share one), in config order. */
  private readonly byName = new Map<string, ServerConnection[]>();
  /**
   * Connections that offered a feature when they last connected: a superset of those that offer it
   * now (one that went away is dropped when `offeredBySome` next meets it), so that question is not
   * a walk over every server.
   */
  private readonly offering = new Map<ServerFeature, Set<ServerConnection>>();
  private readonly auth: AuthContext | undefined;
  private readonly eraMemory: EraMemoryHandles | undefined;
  private readonly registrations = new ToolRegistrations();
  private readonly events = new ServerEvents();
  private readonly questions: QuestionAnswerer;
  private readonly clock: Clock;
  private restarts: AutoRestarts | undefined;
  private closing: Promise<void> | undefined;

  constructor(entries: ServerEntry[], options: ServerPoolOptions = {}) {
    this.auth = options.auth;
    this.questions = new QuestionAnswerer(options.elicitation);
    this.eraMemory = options.eraMemory && new EraMemoryHandles(options.eraMemory);
    this.clock = options.clock ?? systemClock;
    if (options.restartCrashed) this.restartCrashedServers(options.restartCrashed.delaysMs);
    const shared = {
      createTransport: options.createTransport,
      auth: options.auth,
      roots: options.roots,
      // Declared only by a pool made with an answerer; who answers is asked at each question (see answerQuestionsWith).
      elicitation: options.elicitation === undefined ? undefined : this.questions.answer,
      relay: options.relayToClients ? this.questions.relay : undefined,
      inputRequestsTogether: options.relayToClients,
      eraMemory: this.eraMemory,
      watchChanges: options.watchChanges,
      onWarning: options.onWarning,
      clock: this.clock,
      events: this.events,
      registrations: this.registrations,
      restarts: () => this.restarts,
    };
    this.connections = entries.map((entry) => new ServerConnection(entry, shared));
    for (const connection of this.connections) {
      const named = this.byName.get(connection.entry.name);
      if (named) named.push(connection);
      else this.byName.set(connection.entry.name, [connection]);
    }
    // Added first, so every other listener of a connect already finds the server in `offering`.
    this.events.on("server", (event) => {
      if (event.kind === "connected") for (const connection of this.byName.get(event.server) ?? []) this.noteOffers(connection);
    });
  }

  get size(): number {
    return this.connections.length;
  }

  /**
   * Connects every usable server in parallel and lists its tools; each one's tools join the
   * registries (see registerInto) the moment it is ready, not when the slowest is. Never rejects.
   */
  async connectAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    const signals = options.signal && fanOut(options.signal);
    try {
      await Promise.all(this.connections.map((connection) => connection.connect({ signal: signals?.next() })));
    } finally {
      signals?.end();
    }
  }

  /**
   * From now on a stdio server that crashes after it was connected is restarted after these delays
   * (default: once, after 1 s); otherwise a crash leaves it FAILED until `reconnect`. The agent
   * session turns it on; one-shot commands and the keeper (which replaces a dead connection itself) do not.
   */
  restartCrashedServers(delaysMs?: readonly number[]): void {
    this.restarts ??= new AutoRestarts(this.clock, delaysMs);
  }

  /**
   * Hears one kind of event of every server from now on (see ServerEventMap): any number of
   * listeners, each removed by what `on` returns. Tools are already in (or out of) every registry
   * when a listener hears of them.
   */
  on<K extends ServerEventName>(name: K, listener: (event: ServerEventMap[K]) => void): () => void {
    return this.events.on(name, listener);
  }

  /**
   * Takes over the servers' questions (elicitation) from the answerer the pool was made with, until
   * the returned function gives them back, and with `relay` their sampling and in-call roots too (a
   * pool made with `relayToClients`). Throws while another front end holds them (see
   * QuestionAnswerer). Only a pool made with `elicitation` declares the capability, so only its
   * servers ask.
   */
  answerQuestionsWith(handler: ElicitationHandler, relay?: RequestRelay): () => void {
    return this.questions.answerWith(handler, relay);
  }

  status(): ServerStatus[] {
    return this.connections.map((connection) => connection.status);
  }

  /** The status of the server of that name (the first, as `status()` lists them), without a walk over every server. */
  statusOf(name: string): ServerStatus | undefined {
    return this.named(name)?.status;
  }

  /** The connected servers whose client offers the feature (resources, prompts...), in config order. */
  serversOffering(feature: ServerFeature): Array<{ name: string; client: McpClient }> {
    const offering: Array<{ name: string; client: McpClient }> = [];
    for (const { entry, client } of this.connections) {
      // The client's own state too: a server that crashed, or a closed pool, is not offered.
      if (client?.state.status === "connected" && client.offers(feature)) offering.push({ name: entry.name, client });
    }
    return offering;
  }

  /**
   * Whether any connected server offers the feature. Cheap enough for a listener of every server
   * event to ask (the agent session does, to offer the resource tools or not): a walk over every
   * server there made N servers' start O(N²).
   */
  offeredBySome(feature: ServerFeature): boolean {
    const candidates = this.offering.get(feature);
    for (const connection of candidates ?? []) {
      const { client } = connection;
      if (client?.state.status === "connected" && client.offers(feature)) return true;
      candidates!.delete(connection);
    }
    return false;
  }

  /** The live client of a connected server. */
  client(name: string): McpClient | undefined {
    return this.named(name)?.client;
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
    for (const connection of this.connections) count += connection.registerTools(registry);
    return count;
  }

  /** OAuth for this pool's HTTP servers (a sign-in uses the same store and hint). */
  get authContext(): AuthContext | undefined {
    return this.auth;
  }

  /** The entry of a configured server. */
  entry(name: string): ServerEntry | undefined {
    return this.named(name)?.entry;
  }

  /**
   * Connects one server anew (`/mcp reconnect`, or after a sign-in gave it tokens): closes its
   * client, connects with the pool's auth, and puts its tools in place of the old ones in every
   * registry, telling the tools-changed listeners. A crash after it gets its automatic restart again. Resolves
   * with its new status; never rejects (a failure is in the status). `interaction`: a person at hand
   * while this connect runs, and only then (the reconnect after `/mcp login`, so a server that names
   * a new authorization server once it sees the new token, SEP-2352, is signed in to there too).
   */
  async reconnect(name: string, options: { signal?: AbortSignal; interaction?: SignInInteraction } = {}): Promise<ServerStatus | undefined> {
    const connection = this.named(name);
    return connection && this.userRestart(connection, options.signal, options.interaction);
  }

  /** `/mcp reconnect` without a name: every server that failed (a crash, a failed connect), side by side. */
  async reconnectFailed(options: { signal?: AbortSignal } = {}): Promise<ServerStatus[]> {
    const failed = this.connections.filter((c) => c.status.state === "failed");
    return Promise.all(failed.map((connection) => this.userRestart(connection, options.signal)));
  }

  /** The first connection of that name, as a walk in config order would find it, without the walk. */
  private named(name: string): ServerConnection | undefined {
    return this.byName.get(name)?.[0];
  }

  /** Puts a connection that just connected among those offering each feature its server offers. */
  private noteOffers(connection: ServerConnection): void {
    const { client } = connection;
    if (!client) return;
    for (const feature of SERVER_FEATURES) {
      if (!client.offers(feature)) continue;
      let candidates = this.offering.get(feature);
      if (!candidates) this.offering.set(feature, (candidates = new Set()));
      candidates.add(connection);
    }
  }

  private userRestart(connection: ServerConnection, signal: AbortSignal | undefined, interaction?: SignInInteraction): Promise<ServerStatus> {
    this.restarts?.reset(connection.entry.name);
    return connection.restart("reconnect", signal, interaction);
  }

  /** `/mcp disable <name>`: see ServerConnection.disable; false when no usable entry has that name. */
  async disable(name: string): Promise<boolean> {
    const connection = this.named(name);
    return connection ? connection.disable() : false;
  }

  /** `/mcp enable <name>`: connects it again; its new status, or undefined when no server has that name. */
  async enable(name: string, options: { signal?: AbortSignal } = {}): Promise<ServerStatus | undefined> {
    const connection = this.named(name);
    return connection?.enable(options.signal);
  }

  /** Closes every client, in parallel. Safe to call twice. */
  closeAll(): Promise<void> {
    this.restarts?.cancelAll();
    this.closing ??= Promise.all(this.connections.map((connection) => connection.close()))
      .then(() => this.eraMemory?.settled())
      .then(() => {});
    return this.closing;
  }
}

/**
 * A signal of its own for each of many connects, all aborted from one listener on `signal`: Bun's
 * addEventListener looks through a signal's listeners for a duplicate, so a thousand clients each
 * listening on the caller's one signal made connecting them O(N²) (half the CPU time at 16,000).
 */
function fanOut(signal: AbortSignal): { next(): AbortSignal; end(): void } {
  const controllers: AbortController[] = [];
  const abort = () => {
    for (const controller of controllers) controller.abort(signal.reason);
  };
  signal.addEventListener("abort", abort, { once: true });
  return {
    next: () => {
      const controller = new AbortController();
      if (signal.aborted) controller.abort(signal.reason);
      controllers.push(controller);
      return controller.signal;
    },
    end: () => signal.removeEventListener("abort", abort),
  };
}
