import type { ServerEvent } from "../mcp/index.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { reasonHeadline } from "./mcp-table.ts";

/**
 * The REPL's line for a server that went away or came back by itself; undefined for what other
 * lines already say (the startup summary, `/mcp reconnect`'s own answer, a sign-in's).
 */
export function serverEventLine(event: ServerEvent): string | undefined {
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
