import { log } from "../log.ts";
import type { McpClient } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** A resource the user attached (a ResourceMention): its server, its URI and the connection that serves it. */
interface AttachedResource {
  server: string;
  uri: string;
  client: McpClient;
}

/**
 * Tells the user when a resource they attached changes, where its server offers subscriptions:
 * each attached resource is subscribed once, and its first `notifications/resources/updated` after
 * each attachment gives one news line. A server that repeats itself (server-everything says so every
 * 5 s) is heard once, until the resource is mentioned again.
 */
export class ResourceUpdates {
  /** By `server\0uri`: whether the user was told since the last attachment. */
  private readonly watched = new Map<string, { told: boolean }>();

  constructor(private readonly news: (line: string) => void) {}

  /** Resolves once the new subscriptions are in place (the REPL does not wait; a failure is a debug line). */
  async watch(resources: readonly AttachedResource[]): Promise<void> {
    const subscribing: Promise<void>[] = [];
    for (const { server, uri, client } of resources) {
      if (!client.offers("resourceSubscriptions")) continue;
      const key = `${server}\u0000${uri}`;
      const known = this.watched.get(key);
      if (known) {
        known.told = false;
        continue;
      }
      this.watched.set(key, { told: false });
      const subscribed = client.subscribeResource(uri).catch((error: Error) => {
        this.watched.delete(key);
        log.debug(`MCP server '${server}': subscribing to ${uri} failed: ${error.message}`);
      });
      subscribing.push(subscribed);
    }
    await Promise.all(subscribing);
  }

  /** For the pool's `resource-updated` event. */
  updated(server: string, uri: string): void {
    const watched = this.watched.get(`${server}\u0000${uri}`);
    if (!watched || watched.told) return;
    watched.told = true;
    const shown = sanitizeForTerminal(cutText(uri, 200));
    this.news(`MCP: ${sanitizeForTerminal(server)} says ${shown} changed (mention it again to send the new content)`);
  }
}
