import * as v from "valibot";
import { log } from "../../log.ts";
import type { Clock } from "../../system/clock.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { McpError } from "../mcp-error.ts";
import type { JsonRpcNotification } from "../protocol.ts";
import { MetaKey, SubscriptionsAcknowledgedParams, type SubscriptionFilter } from "../stateless-protocol.ts";
import { SubscriptionListener } from "./subscription-listener.ts";
import type { Era } from "./version-negotiation.ts";

/** The list changes a modern listen stream may ask for; the resource URIs are the subscriptions' own. */
export type ListChanges = Pick<SubscriptionFilter, "toolsListChanged" | "resourcesListChanged" | "promptsListChanged">;

export interface SubscriptionHost {
  era(): Era;
  /** A legacy request with the client's timeout: `resources/subscribe`, `resources/unsubscribe`. */
  request(method: string, params: Record<string, unknown>, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<unknown>;
  /** The modern `subscriptions/listen` request with this filter; `registered` hears its id before it is sent. */
  listen(filter: SubscriptionFilter, signal: AbortSignal, registered: (id: number) => void): Promise<unknown>;
  /** The client's timeout, for waiting on an acknowledgement. */
  timeoutMs: number;
  clock: Clock;
  /** For log lines: the transport's description. */
  description: string;
}

interface Waiter {
  resolve(filter: SubscriptionFilter): void;
  reject(error: Error): void;
}

/**
 * The resources a client is subscribed to, in both eras. Legacy: one `resources/subscribe` (or
 * `unsubscribe`) request per URI. Modern (2026-07-28): there is no such request; the one
 * `subscriptions/listen` stream names every URI in its filter beside the list changes asked for,
 * so a change of the set makes the listen request again with the new filter, and a subscription
 * holds once the server acknowledged the new stream with that URI in it.
 */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();
  private lists: ListChanges = {};
  private listener: SubscriptionListener | undefined;
  private listenId: number | undefined;
  private waiters: Waiter[] = [];

  constructor(private readonly host: SubscriptionHost) {}

  /** Modern: the list changes to hear (from the server's capabilities); starts listening when there is anything to hear. */
  watchLists(lists: ListChanges): void {
    this.lists = lists;
    this.relisten();
  }

  async subscribe(uri: string, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<void> {
    if (this.host.era() === "legacy") {
      await this.host.request("resources/subscribe", { uri }, options);
      this.uris.add(uri);
      return;
    }
    if (this.uris.has(uri)) return;
    this.uris.add(uri);
    const acknowledged = this.acknowledgement(options);
    this.relisten();
    const honoured = await acknowledged.catch((error: Error) => {
      this.uris.delete(uri);
      throw error;
    });
    if (!honoured.resourceSubscriptions?.includes(uri)) {
      this.uris.delete(uri);
      throw new McpError(undefined, `the server did not take the subscription to ${uri} (its acknowledgement leaves it out)`);
    }
  }

  async unsubscribe(uri: string, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<void> {
    if (this.host.era() === "legacy") {
      await this.host.request("resources/unsubscribe", { uri }, options);
      this.uris.delete(uri);
      return;
    }
    if (!this.uris.delete(uri)) return;
    const acknowledged = this.filter() && this.acknowledgement(options);
    this.relisten();
    await acknowledged;
  }

  /**
   * A legacy HTTP session was renewed: the new session knows none of our subscriptions, so each is
   * asked for again (in the background; a failure is a debug line, the URI stays wanted).
   */
  renewed(): void {
    if (this.host.era() !== "legacy") return;
    for (const uri of this.uris) {
      this.host
        .request("resources/subscribe", { uri }, {})
        .catch((error: Error) => log.debug(`${this.host.description}: could not subscribe to ${uri} again in the new session: ${error.message}`));
    }
  }

  /** Hears every server notification: an acknowledgement of the current listen stream settles who waits for it. */
  heard(notification: JsonRpcNotification): void {
    if (notification.method !== "notifications/subscriptions/acknowledged") return;
    const params = v.safeParse(SubscriptionsAcknowledgedParams, notification.params);
    const meta = isPlainObject(notification.params) ? notification.params._meta : undefined;
    const id = isPlainObject(meta) ? meta[MetaKey.subscriptionId] : undefined;
    if (!params.success || id === undefined || id !== this.listenId) return;
    for (const waiter of this.waiters.splice(0)) waiter.resolve(params.output.notifications);
  }

  /** Ends the listen stream; safe to call twice. */
  stop(): void {
    this.listener?.stop();
    this.listener = undefined;
    this.fail(McpError.closed("the connection was closed"));
  }

  /**
   * Makes the listen request anew with the current filter (closing the old stream); with nothing to
   * hear, only closes it. Who waits for the new stream's acknowledgement registers first (`acknowledgement`).
   */
  private relisten(): void {
    this.listener?.stop();
    this.listener = undefined;
    this.listenId = undefined;
    const filter = this.filter();
    if (!filter) return this.fail(McpError.cancelled("subscriptions/listen"));
    const listen = (signal: AbortSignal) =>
      this.host.listen(filter, signal, (id) => (this.listenId = id)).catch((error: Error) => {
        // Who waits for this stream's acknowledgement hears why it will not come.
        if (!signal.aborted) this.fail(error);
        throw error;
      });
    this.listener = new SubscriptionListener(listen, this.host.description, this.host.clock);
    this.listener.start();
  }

  /** What the listen stream asks for now; undefined when there is nothing to hear. */
  private filter(): SubscriptionFilter | undefined {
    const filter: SubscriptionFilter = { ...pickTrue(this.lists), ...(this.uris.size > 0 && { resourceSubscriptions: [...this.uris] }) };
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  private acknowledgement(options: { timeoutMs?: number; signal?: AbortSignal }): Promise<SubscriptionFilter> {
    const ms = options.timeoutMs ?? this.host.timeoutMs;
    return new Promise<SubscriptionFilter>((resolve, reject) => {
      const timer = this.host.clock.setTimeout(() => settle(() => reject(McpError.timeout("subscriptions/listen", ms))), ms);
      const onAbort = () => settle(() => reject(McpError.cancelled("subscriptions/listen")));
      const settle = (then: () => void) => {
        this.host.clock.clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        then();
      };
      const waiter: Waiter = { resolve: (filter) => settle(() => resolve(filter)), reject: (error) => settle(() => reject(error)) };
      this.waiters.push(waiter);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private fail(error: Error): void {
    const waiters = this.waiters.splice(0);
    if (waiters.length > 0) log.debug(`${this.host.description}: subscriptions/listen: ${error.message}`);
    for (const waiter of waiters) waiter.reject(error);
  }
}

function pickTrue(lists: ListChanges): ListChanges {
  return Object.fromEntries(Object.entries(lists).filter(([, on]) => on === true));
}
