import type { ElicitationHandler } from "../mcp/client/elicitation.ts";
import type { ToolDefinition } from "../mcp/protocol.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import { ServerLogLines } from "../terminal/server-log-lines.ts";
import { serverEventLine } from "./server-event-lines.ts";

/** What a front end (the REPL, print mode) hears of the pool while a session runs. */
export interface PoolListeners {
  /** Answers a server's question (a form, a link). */
  elicitation: ElicitationHandler;
  /** A server's warning, sanitized, at most so many per server until `resetLogLines`. */
  serverLog: (line: string) => void;
  /** A server came, went or came back: its line (print mode shows none). */
  serverEvent?: (line: string) => void;
  toolsChanged?: (server: string, tools: ToolDefinition[]) => void;
  resourceUpdated?: (server: string, uri: string) => void;
}

/**
 * The one place a front end attaches to the pool's notifications, so that how the pool tells them
 * (callback fields today) is changed here only. Returns what the caller steers afterwards.
 */
export function listenToPool(pool: McpToolPool, listeners: PoolListeners): { resetLogLines(): void } {
  pool.elicitation = listeners.elicitation;
  const logLines = new ServerLogLines();
  pool.onServerLog = (entry) => {
    const line = logLines.lineFor(entry);
    if (line !== undefined) listeners.serverLog(line);
  };
  if (listeners.toolsChanged) pool.onToolsChanged = listeners.toolsChanged;
  if (listeners.resourceUpdated) pool.onResourceUpdated = listeners.resourceUpdated;
  const serverEvent = listeners.serverEvent;
  if (serverEvent) {
    pool.onServerEvent((event) => {
      const line = serverEventLine(event);
      if (line !== undefined) serverEvent(line);
    });
  }
  return { resetLogLines: () => logLines.reset() };
}
