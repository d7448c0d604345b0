import type { ElicitationHandler, ServerPool, ServerEvent } from "../mcp/index.ts";
import type { ToolDefinition } from "../mcp/protocol.ts";
import { ServerLogLines } from "../terminal/server-log-lines.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { reasonHeadline } from "./mcp-table.ts";

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
 * The one place a front end attaches to the pool: it answers the servers' questions (the pool
 * refuses a second answerer) and hears logs, server events, tool changes and resource updates.
 * Returns what the caller steers afterwards; `detach` gives the questions back and stops listening.
 */
export function listenToPool(pool: ServerPool, listeners: PoolListeners): { resetLogLines(): void; detach(): void } {
  const logLines = new ServerLogLines();
  const stops = [
    pool.answerQuestionsWith(listeners.elicitation),
    pool.on("log", (entry) => {
      const line = logLines.lineFor(entry);
      if (line !== undefined) listeners.serverLog(line);
    }),
  ];
  const { toolsChanged, resourceUpdated, serverEvent } = listeners;
  if (toolsChanged) stops.push(pool.on("tools-changed", ({ server, tools }) => toolsChanged(server, tools)));
  if (resourceUpdated) stops.push(pool.on("resource-updated", ({ server, uri }) => resourceUpdated(server, uri)));
  if (serverEvent) {
    stops.push(
      pool.on("server", (event) => {
        const line = serverEventLine(event);
        if (line !== undefined) serverEvent(line);
      }),
    );
  }
  return { resetLogLines: () => logLines.reset(), detach: () => stops.forEach((stop) => stop()) };
}

/**
 * The REPL's line for a server that went away or came back by itself; undefined for what other
 * lines already say (the startup summary, `/mcp reconnect`'s own answer, a sign-in's).
 */
function serverEventLine(event: ServerEvent): string | undefined {
  const name = sanitizeForTerminal(event.server);
  switch (event.kind) {
    case "lost": {
      const reason = sanitizeForTerminal(reasonHeadline(event.status.reason));
      const next = event.restartInMs === undefined ? `/mcp reconnect ${name} restarts it` : `restarting it in ${formatDelay(event.restartInMs)}`;
      return `MCP server '${name}' failed: ${reason}; its tools are gone (${next})`;
    }
    case "connected":
      return event.after === "restart" ? `MCP server '${name}' restarted: ${event.status.tools.length} tool(s)` : undefined;
    case "not-connected":
      if (event.after !== "restart") return undefined;
      return `MCP server '${name}' could not be restarted: ${sanitizeForTerminal(firstLine("reason" in event.status ? event.status.reason : event.status.state))} (/mcp reconnect ${name} tries again)`;
  }
}

function formatDelay(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
