import { log } from "../log.ts";
import type { Tool } from "./tool.ts";

/** A tool joined or left the registry; the tool search index follows these one tool at a time. */
export type RegistryChange = { kind: "added" | "removed"; tool: Tool };

/** The tools the agent can call, by name. Built-in and MCP tools live here side by side. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly listeners = new Set<(change: RegistryChange) => void>();

  /** Hears every tool that joins or leaves from now on; returns the function that stops it. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a tool; a name already taken is refused, since the first owner would silently vanish. */
  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`a tool named ${tool.name} is already registered`);
    this.tools.set(tool.name, tool);
    this.tell({ kind: "added", tool });
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** In registration order. */
  list(): Tool[] {
    return [...this.tools.values()];
  }

  unregister(name: string): boolean {
    const tool = this.tools.get(name);
    if (!tool) return false;
    this.tools.delete(name);
    this.tell({ kind: "removed", tool });
    return true;
  }

  /** A listener that throws is logged and harms neither the registry nor the other listeners. */
  private tell(change: RegistryChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        log.warn(`a tool registry listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }
}
