import type { ToolRegistry } from "../../agent/tool-registry.ts";
import { log } from "../../log.ts";
import { McpClient } from "../client/mcp-client.ts";
import { describeServer, type ConfigScope, type ServerConfig, type ServerEntry } from "../config/server-config.ts";
import type { Implementation, ToolDefinition } from "../protocol.ts";
import { McpToolAdapter } from "../tools/mcp-tool-adapter.ts";
import { namespacedToolName, stableHash, withSuffix } from "../tools/tool-names.ts";
import { createTransport } from "../transport/create-transport.ts";
import { StdioTransport } from "../transport/stdio-transport.ts";
import type { Transport } from "../transport/transport.ts";

/** What `mcp list` and `/mcp` render: one per configured server, data only. */
export type ServerStatus = {
  name: string;
  scope: ConfigScope;
  /** The file the entry came from. */
  source: string;
  /** `stdio: <command line>` or `http: <url>`; empty for an entry too broken to say. */
  description: string;
} & (
  | { state: "pending" }
  | { state: "connected"; tools: ToolDefinition[]; serverInfo: Implementation | undefined; protocolVersion: string }
  | { state: "failed"; reason: string; stderr: string[] }
  | { state: "invalid"; reason: string }
  | { state: "disabled" }
  /** A project entry the user has not approved in this form: nothing is spawned or contacted. */
  | { state: "needs-approval" }
  /** A project entry the user refused: never started. */
  | { state: "denied" }
);

export type ServerState = ServerStatus["state"];

interface Connection {
  entry: ServerEntry;
  client?: McpClient;
  status: ServerStatus;
}

export interface ToolPoolOptions {
  /** Builds the transport of an entry; tests swap in fakes. */
  createTransport?: (config: ServerConfig) => Transport;
}

/** How many stderr lines a failure shows when the reason does not already carry them. */
const STDERR_LINES_IN_STATUS = 10;

/**
 * All configured servers. Connects them side by side; one server's failure (a bad entry, a missing
 * command, a failed handshake) never touches another. Owns every client and closes them all.
 */
export class McpToolPool {
  private readonly connections: Connection[];
  private readonly makeTransport: (config: ServerConfig) => Transport;
  private closing: Promise<void> | undefined;

  constructor(entries: ServerEntry[], options: ToolPoolOptions = {}) {
    this.makeTransport = options.createTransport ?? createTransport;
    this.connections = entries.map((entry) => ({ entry, status: initialStatus(entry) }));
  }

  get size(): number {
    return this.connections.length;
  }

  /** Connects every usable server in parallel and lists its tools. Never rejects. */
  async connectAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    await Promise.all(this.connections.map((connection) => this.connect(connection, options.signal)));
  }

  status(): ServerStatus[] {
    return this.connections.map((connection) => connection.status);
  }

  /** The live client of a connected server. */
  client(name: string): McpClient | undefined {
    const connection = this.connections.find((c) => c.entry.name === name);
    return connection?.status.state === "connected" ? connection.client : undefined;
  }

  /**
   * Registers every tool of every connected server as `mcp__<server>__<tool>`. A name that is taken
   * (two tools that sanitize alike, or a cut name) gets a stable hash suffix and a warning, so both
   * tools stay callable. Returns the number of tools registered.
   */
  registerInto(registry: ToolRegistry): number {
    let count = 0;
    for (const { entry, client, status } of this.connections) {
      if (status.state !== "connected" || !client) continue;
      for (const definition of status.tools) {
        let name = namespacedToolName(entry.name, definition.name);
        if (registry.has(name)) {
          const distinct = withSuffix(name, stableHash(`${entry.name}\u0000${definition.name}`));
          log.warn(
            `MCP tool '${definition.name}' of server '${entry.name}' maps to ${name}, which is taken; registered as ${distinct}`,
          );
          name = distinct;
        }
        if (registry.has(name)) {
          log.warn(`MCP tool '${definition.name}' of server '${entry.name}' is listed twice; the second is skipped`);
          continue;
        }
        registry.register(new McpToolAdapter(name, entry.name, definition, client));
        count++;
      }
    }
    return count;
  }

  /** Closes every client, in parallel. Safe to call twice. */
  closeAll(): Promise<void> {
    this.closing ??= Promise.all(this.connections.map((c) => c.client?.close().catch(() => {}))).then(() => {});
    return this.closing;
  }

  private async connect(connection: Connection, signal: AbortSignal | undefined): Promise<void> {
    const { entry } = connection;
    if (!entry.ok || entry.config.disabled || entry.trust || this.closing) return;
    const transport = this.makeTransport(entry.config);
    const client = new McpClient(transport, { timeoutMs: entry.config.timeout });
    connection.client = client;
    const { name, scope, source, description } = connection.status;
    const base = { name, scope, source, description };
    try {
      await client.connect({ signal });
      const tools = filterTools(await client.listTools({ signal }), entry.config);
      connection.status = {
        ...base,
        state: "connected",
        tools,
        serverInfo: client.serverInfo,
        protocolVersion: client.protocolVersion ?? "",
      };
    } catch (error) {
      const stderr = transport instanceof StdioTransport ? transport.stderr.tail(STDERR_LINES_IN_STATUS) : [];
      const reason = (error as Error).message;
      // An exit already quotes stderr in its reason; say it once.
      connection.status = { ...base, state: "failed", reason, stderr: reason.includes(stderr.at(-1) ?? "\0") ? [] : stderr };
      await client.close();
    }
  }
}

function initialStatus(entry: ServerEntry): ServerStatus {
  const base = { name: entry.name, scope: entry.scope, source: entry.source };
  if (!entry.ok) return { ...base, description: "", state: "invalid", reason: entry.error };
  const description = describeServer(entry.config, entry.raw);
  if (entry.config.disabled) return { ...base, description, state: "disabled" };
  return { ...base, description, state: entry.trust ?? "pending" };
}

function filterTools(tools: ToolDefinition[], config: ServerConfig): ToolDefinition[] {
  const { includeTools, excludeTools } = config;
  return tools.filter(
    (tool) => (!includeTools || includeTools.includes(tool.name)) && !excludeTools?.includes(tool.name),
  );
}
