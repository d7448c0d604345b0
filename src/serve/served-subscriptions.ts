import { log } from "../log.ts";
import { McpError } from "../mcp/light-index.ts";
import type { ServerPool } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import type { UpstreamCatalog } from "./upstream-catalog.ts";

/** The resources one client may be subscribed to at once: more than any real client watches, few enough to bound it. */
export const MAX_SUBSCRIPTIONS_PER_CLIENT = 1024;

/** One client of `mcp serve` that subscribes to resources: told when one of them changes. */
export interface Subscriber {
  updated(uri: string): void;
}

/**
 * Resource subscriptions through `mcp serve`: a client's `resources/subscribe` is passed to the
 * server that answers for the URI (once, however many clients hold it), the server's
 * `notifications/resources/updated` goes to every client holding that URI, and the upstream
 * subscription ends when the last holder unsubscribes or goes away. A server connected anew (a
 * crash and its restart, a reconnect) knows none of the subscriptions it had: each held on it is
 * asked for again, so its clients keep hearing of updates.
 */
export class ServedSubscriptions {
  private readonly holders = new Map<string, Set<Subscriber>>();
  private readonly held = new Map<Subscriber, Set<string>>();
  /** The server each held URI was subscribed on upstream. */
  private readonly servers = new Map<string, string>();

  constructor(
    private readonly catalog: UpstreamCatalog,
    private readonly pool: ServerPool,
  ) {
    pool.on("resource-updated", ({ uri }) => {
      for (const subscriber of this.holders.get(uri) ?? []) subscriber.updated(uri);
    });
    pool.on("server", (event) => {
      if (event.kind === "connected" && event.after !== "start") this.renew(event.server);
    });
  }

  async subscribe(uri: string, subscriber: Subscriber, signal?: AbortSignal): Promise<void> {
    const mine = this.held.get(subscriber) ?? new Set<string>();
    if (!mine.has(uri) && mine.size >= MAX_SUBSCRIPTIONS_PER_CLIENT) {
      throw new McpError(ErrorCode.InvalidParams, `at most ${MAX_SUBSCRIPTIONS_PER_CLIENT} resource subscriptions per client; unsubscribe from some first`);
    }
    const upstream = await this.catalog.resource(uri, signal);
    if (!upstream) throw new McpError(ErrorCode.InvalidParams, `Resource not found: no connected server lists ${uri}`, { data: { uri } });
    // Asked upstream for every new holder's first subscribe, so a server that refuses says so to each client that asks.
    if (!this.holders.get(uri)?.size) await upstream.client.subscribeResource(uri, { signal });
    this.servers.set(uri, upstream.server);
    const holders = this.holders.get(uri) ?? new Set<Subscriber>();
    holders.add(subscriber);
    this.holders.set(uri, holders);
    mine.add(uri);
    this.held.set(subscriber, mine);
  }

  async unsubscribe(uri: string, subscriber: Subscriber, signal?: AbortSignal): Promise<void> {
    const holders = this.holders.get(uri);
    this.held.get(subscriber)?.delete(uri);
    if (!holders?.delete(subscriber) || holders.size > 0) return;
    this.holders.delete(uri);
    this.servers.delete(uri);
    const upstream = await this.catalog.resource(uri, signal);
    try {
      await upstream?.client.unsubscribeResource(uri, { signal });
    } catch (error) {
      // The client is no longer subscribed either way: a server that fails to forget only sends a note too many.
      log.debug(`mcp serve: could not unsubscribe from ${uri.slice(0, 200)} upstream: ${(error as Error).message}`);
    }
  }

  /** Asks `server`, connected anew, for every subscription held on it (in the background; a failure is a debug line, the clients still hold it). */
  private renew(server: string): void {
    const client = this.pool.client(server);
    for (const [uri, on] of this.servers) {
      if (on !== server || !this.holders.get(uri)?.size) continue;
      client
        ?.subscribeResource(uri)
        .catch((error: Error) => log.debug(`mcp serve: could not subscribe to ${uri.slice(0, 200)} again on '${server}' after it connected anew: ${error.message}`));
    }
  }

  /** The client went away: every subscription it held is given up. */
  release(subscriber: Subscriber): void {
    for (const uri of [...(this.held.get(subscriber) ?? [])]) void this.unsubscribe(uri, subscriber);
    this.held.delete(subscriber);
  }
}
