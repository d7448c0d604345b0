import type { Tool } from "./tool.ts";

/** The tools the agent can call, by name. Built-in and MCP tools live here side by side. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  /** Adds a tool; a name already taken is refused, since the first owner would silently vanish. */
  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`a tool named ${tool.name} is already registered`);
    this.tools.set(tool.name, tool);
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
    return this.tools.delete(name);
  }
}
