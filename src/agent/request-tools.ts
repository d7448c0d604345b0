import type { Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages";
import type { Tool } from "./tool.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import { ToolSearchIndex } from "./tool-search-index.ts";
import { DEFAULT_TOOL_SEARCH, type ToolSearchMode } from "./tool-search-mode.ts";
import { TOOL_SEARCH_NAME, ToolSearchTool } from "./tools/tool-search-tool.ts";

/**
 * A server may list any number of tools: past this many, its line of names ends with how many more
 * there are, and the search still finds them all.
 */
const MAX_NAMES_PER_SERVER = 2_000;

/** A rough count for deciding and for /context's estimate: about four characters a token. */
export const CHARS_PER_TOKEN = 4;

/** What one request carries of the tools. */
export interface RequestToolSet {
  tools: ApiTool[];
  /**
   * How many leading tools stay the same when a tool is loaded: the cache breakpoint goes on the
   * last of them, so loading a tool (appended behind) leaves the cached prefix as it was.
   */
  stableCount: number;
  /** The compact list of deferred tools' names, for the system prompt; absent when none is deferred. */
  deferredNote?: string;
}

/** How the runner finds a tool by name, and why one it cannot find is missing. */
export interface ToolLookup {
  get(name: string): Tool | undefined;
  missing?(name: string): string | undefined;
}

/**
 * Which tools a request carries: every tool, or — when the servers' tools are deferred (tool
 * search) — cat-code's own tools, the search tool, and the deferred tools loaded so far, in the
 * order they were loaded, so the list only grows at its end. Deferred tools are indexed one at a
 * time as they join or leave the registry. A deferred tool the model calls without searching is
 * run and loaded; a tool whose server went away is reported as such.
 */
export class RequestTools implements ToolLookup {
  readonly index = new ToolSearchIndex();
  readonly searchTool: ToolSearchTool;
  private readonly loaded = new Set<string>();
  /** Names to load as soon as they are indexed: a resumed conversation's, whose servers may still be connecting. */
  private readonly wanted = new Set<string>();
  private readonly loadedListeners = new Set<(names: string[]) => void>();
  /** Names of deferrable tools that left the registry, and their server: "disconnected", not "unknown". */
  private readonly gone = new Map<string, string>();
  /** The deferrable tools' definitions, in characters (kept as they join and leave). */
  private deferrableChars = 0;
  private note: string | undefined;
  private noteStale = true;

  constructor(
    private readonly registry: ToolRegistry,
    public mode: ToolSearchMode = DEFAULT_TOOL_SEARCH,
  ) {
    this.searchTool = new ToolSearchTool({ index: this.index, load: (tools) => this.load(tools.map((tool) => tool.name)) });
    for (const tool of registry.list()) this.added(tool);
    registry.onChange((change) => (change.kind === "added" ? this.added(change.tool) : this.removed(change.tool)));
  }

  /** Whether servers' tools are deferred, for a model with this context window (in tokens). */
  deferring(contextWindow: number): boolean {
    if (this.index.size === 0 || this.mode.kind === "never") return false;
    if (this.mode.kind === "always") return true;
    return this.deferrableChars / CHARS_PER_TOKEN > (contextWindow * this.mode.percent) / 100;
  }

  forRequest(contextWindow: number): RequestToolSet {
    if (!this.deferring(contextWindow)) {
      const tools = this.registry.list().map(apiToolOf);
      return { tools, stableCount: tools.length };
    }
    const own = this.registry.list().filter((tool) => !tool.deferrable);
    const stable = [...own, this.searchTool].map(apiToolOf);
    const loaded = this.loadedTools().map(apiToolOf);
    return { tools: [...stable, ...loaded], stableCount: stable.length, deferredNote: this.deferredNote() };
  }

  /** The deferred tools loaded so far that are still there, in the order they were loaded. */
  loadedTools(): Tool[] {
    return [...this.loaded].flatMap((name) => this.index.get(name) ?? []);
  }

  /** Deferred and not loaded. */
  deferredTools(): Tool[] {
    return this.index.list().filter((tool) => !this.loaded.has(tool.name));
  }

  load(names: string[]): void {
    let grew = false;
    for (const name of names) {
      if (!this.index.get(name) || this.loaded.has(name)) continue;
      this.loaded.add(name);
      grew = true;
    }
    if (grew) this.tellLoaded();
  }

  /**
   * A resumed conversation's tools (those it had loaded, and those its messages called) become the
   * loaded ones, in place of the conversation's before: loaded now, or the moment they are indexed,
   * since their servers may still be connecting. So the model finds callable the tools it was
   * shown, and the request carries a definition for every tool its history names.
   */
  restore(names: string[]): void {
    this.wanted.clear();
    const before = [...this.loaded];
    this.loaded.clear();
    for (const name of names) if (!this.index.get(name)) this.wanted.add(name);
    for (const name of names) if (this.index.get(name)) this.loaded.add(name);
    const after = [...this.loaded];
    if (after.length !== before.length || after.some((name, i) => name !== before[i])) this.tellLoaded();
  }

  /**
   * Hears the names of the loaded tools, all of them in load order, each time the list grows or a
   * new conversation empties it (the session file keeps them, for a resume); returns what stops it.
   */
  onLoadedChange(listener: (names: string[]) => void): () => void {
    this.loadedListeners.add(listener);
    return () => void this.loadedListeners.delete(listener);
  }

  /** The model called these: a deferred one it named without searching is loaded from now on. */
  noteCalled(names: string[]): void {
    this.load(names);
  }

  /** A new conversation starts with nothing loaded. */
  reset(): void {
    this.restore([]);
  }

  get(name: string): Tool | undefined {
    return name === TOOL_SEARCH_NAME && !this.registry.has(name) ? this.searchTool : this.registry.get(name);
  }

  missing(name: string): string | undefined {
    const server = this.gone.get(name);
    if (server === undefined) return undefined;
    return `Error: the tool '${name}' belongs to server '${server}', which is not connected now (it disconnected or no longer offers this tool); it cannot be called until the server is back.`;
  }

  private added(tool: Tool): void {
    if (!tool.deferrable) return;
    this.gone.delete(tool.name);
    this.index.add(tool);
    this.deferrableChars += definitionChars(tool);
    this.noteStale = true;
    if (this.wanted.delete(tool.name)) this.load([tool.name]);
  }

  private tellLoaded(): void {
    const names = [...this.loaded];
    for (const listener of this.loadedListeners) listener(names);
  }

  private removed(tool: Tool): void {
    if (!tool.deferrable || this.index.get(tool.name) !== tool) return;
    this.index.remove(tool.name);
    this.deferrableChars -= definitionChars(tool);
    // Loaded again from the end if it comes back: the list only grows at its end.
    this.loaded.delete(tool.name);
    if (tool.origin) this.gone.set(tool.name, tool.origin.server);
    this.noteStale = true;
  }

  /**
   * One line a server: its name, the prefix its tools' names share, and the rest of each name.
   * Every deferrable tool, loaded or not, so that loading one leaves the system prompt as it was
   * (it is cached); built again only after a tool joined or left.
   */
  private deferredNote(): string | undefined {
    if (!this.noteStale) return this.note;
    const byServer = new Map<string, { prefix: string; names: string[] }>();
    for (const tool of this.index.list()) {
      const server = tool.origin?.server ?? "other";
      const prefix = tool.origin?.namePrefix ?? "";
      let group = byServer.get(server);
      if (!group) byServer.set(server, (group = { prefix, names: [] }));
      group.names.push(group.prefix && tool.name.startsWith(group.prefix) ? tool.name.slice(group.prefix.length) : tool.name);
    }
    const lines = [...byServer].map(([server, { prefix, names }]) => {
      const shown = names.length > MAX_NAMES_PER_SERVER ? [...names.slice(0, MAX_NAMES_PER_SERVER), `… ${names.length - MAX_NAMES_PER_SERVER} more (search "${server}:")`] : names;
      return `${server}${prefix ? ` (${prefix}…)` : ""}: ${shown.join(" ")}`;
    });
    this.note = lines.length === 0 ? undefined : [DEFERRED_HEADING, ...lines].join("\n");
    this.noteStale = false;
    return this.note;
  }
}

const DEFERRED_HEADING = `Deferred tools: these servers' tools are available but their definitions are not loaded. Call ${TOOL_SEARCH_NAME} (words, exact names, or "<server>:") to load the ones you need; a tool's full name is its server's prefix followed by the name shown.`;

/** A tool as the Messages API takes it. */
export function apiToolOf(tool: Tool): ApiTool {
  return { name: tool.name, description: tool.description, input_schema: { type: "object", ...tool.inputSchema } as ApiTool.InputSchema };
}

function definitionChars(tool: Tool): number {
  return JSON.stringify(apiToolOf(tool)).length;
}
