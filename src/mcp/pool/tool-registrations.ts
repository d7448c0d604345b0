import type { ToolRegistry } from "../../agent/tool-registry.ts";
import { log } from "../../log.ts";
import type { McpClient } from "../client/mcp-client.ts";
import type { ToolDefinition } from "../protocol.ts";
import { McpToolAdapter } from "../tools/mcp-tool-adapter.ts";
import { assignToolNames } from "../tools/tool-names.ts";

/**
 * Where the servers' tools are registered: every registry the pool was asked to fill (kept, so a
 * server that connects later joins them all), and the names each server's tools got in each, so
 * they can be taken out when it goes away or replaced when its tools change. A server is keyed by
 * its connection, not its name: a user's and a project's entry may share one.
 */
export class ToolRegistrations {
  private readonly registries = new Set<ToolRegistry>();
  private readonly names = new Map<object, Map<ToolRegistry, string[]>>();

  /** Keeps `registry`, so later `register` calls fill it too. */
  add(registry: ToolRegistry): void {
    this.registries.add(registry);
  }

  /**
   * Registers a connected server's tools as `mcp__<server>__<tool>` in `only`, or in every kept
   * registry. A name that is taken gets a stable hash suffix and a warning (tool-names.ts), so
   * both tools stay callable. Returns how many were registered (in `only`, or in the last registry).
   */
  register(key: object, server: string, tools: ToolDefinition[], client: McpClient, only?: ToolRegistry): number {
    let count = 0;
    for (const registry of only ? [only] : this.registries) {
      const named = assignToolNames([{ server, tools }], (name) => registry.has(name), (line) => log.warn(line));
      for (const { name, definition } of named) registry.register(new McpToolAdapter(name, server, definition, client));
      this.namesOf(key).set(registry, named.map(({ name }) => name));
      count = named.length;
    }
    return count;
  }

  /** Takes a server's tools out of every registry. */
  unregister(key: object): void {
    for (const [registry, names] of this.names.get(key) ?? []) for (const name of names) registry.unregister(name);
    this.names.delete(key);
  }

  private namesOf(key: object): Map<ToolRegistry, string[]> {
    let names = this.names.get(key);
    if (!names) this.names.set(key, (names = new Map()));
    return names;
  }
}
