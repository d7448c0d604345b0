import { log } from "../../log.ts";
import type { McpClientOptions } from "../client/mcp-client.ts";
import { serverLogDebugLine } from "../client/server-log-debug.ts";
import type { ServerLogEntry } from "../client/server-log.ts";
import type { JsonRpcNotification } from "../protocol.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import type { ServerEvents } from "./server-events.ts";

/** The longest URI a resource update may name; a longer one is dropped. */
const MAX_UPDATED_URI_CHARS = 8192;

/** What ServerNews needs of its connection. */
export interface NewsOfConnection {
  /** The server's configured name, as its events and warnings say it. */
  server: string;
  events: ServerEvents;
  warn: (message: string) => void;
  /** Whether the server is connected now: a resource update before that is dropped. */
  connected: () => boolean;
  /** Whether the connection is closing: a tools change then is not listed any more. */
  closing: () => boolean;
  /** Lists the connected server's tools again and puts them in place; never rejects. */
  refreshTools: () => Promise<void>;
}

/**
 * What a server tells its connection unasked, as the connection's events and warnings: its tools
 * changed (listed again, once more if it says so meanwhile), a resource updated, its resources or
 * prompts changed, its log; and the tools its client left out, each warned of once. One per
 * connection, across the clients it opens.
 */
export class ServerNews {
  /** A re-listing under way, and whether another change was announced while it ran. */
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  /** Tools already warned about as left out, so a server that re-lists often is not a stream of warnings. */
  private readonly rejectedTools = new Set<string>();

  constructor(private readonly connection: NewsOfConnection) {}

  /** Where a client's news goes: the options of McpClient that hear it. */
  get listeners(): Required<Pick<McpClientOptions, "onLog" | "onNotification" | "onRejectedTool">> {
    const { server, warn } = this.connection;
    return {
      onLog: (logged) => this.serverLog({ ...logged, server }),
      onNotification: (notification) => this.notification(notification),
      onRejectedTool: (tool) => {
        const key = `${tool.name}\u0000${tool.reason}`;
        if (this.rejectedTools.has(key)) return;
        this.rejectedTools.add(key);
        warn(`MCP tool '${tool.name}' of server '${server}' is left out: ${tool.reason}; the server's other tools work`);
      },
    };
  }

  private notification(notification: JsonRpcNotification): void {
    const { server, events } = this.connection;
    if (notification.method === "notifications/tools/list_changed") this.toolsChanged();
    if (notification.method === "notifications/resources/updated") this.resourceUpdated(notification.params);
    if (notification.method === "notifications/resources/list_changed") events.emit("list-changed", { server, list: "resources" });
    if (notification.method === "notifications/prompts/list_changed") events.emit("list-changed", { server, list: "prompts" });
  }

  /** The server said its tools changed: list them again (once more if it says so meanwhile). */
  private toolsChanged(): void {
    this.refreshAgain = true;
    this.refreshing ??= (async () => {
      while (this.refreshAgain && !this.connection.closing()) {
        this.refreshAgain = false;
        await this.connection.refreshTools();
      }
      this.refreshing = undefined;
    })();
  }

  /**
   * A connected server's `notifications/resources/updated` with a string `uri` (of a sane length:
   * it reaches a terminal line) reaches the resource-updated listeners; others are dropped.
   */
  private resourceUpdated(params: unknown): void {
    const { server, events } = this.connection;
    const uri = isPlainObject(params) ? params.uri : undefined;
    if (!this.connection.connected() || typeof uri !== "string" || uri.length > MAX_UPDATED_URI_CHARS) {
      log.debug(`MCP server '${server}': dropped a notifications/resources/updated without a usable uri, or before it was connected`);
      return;
    }
    events.emit("resource-updated", { server, uri });
  }

  private serverLog(entry: ServerLogEntry): void {
    log.debug(serverLogDebugLine(entry));
    this.connection.events.emit("log", entry);
  }
}
