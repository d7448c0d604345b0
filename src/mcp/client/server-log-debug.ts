import type { ServerLogEntry } from "./server-log.ts";

/**
 * The debug line of a server's `notifications/message`, the same whether the pool or the keeper
 * relayed it. Its own file: a warm command loads it without the pool or server-log.ts's schemas.
 */
export function serverLogDebugLine(entry: ServerLogEntry): string {
  return `MCP server '${entry.server}' logged (${entry.level})${entry.logger ? ` ${entry.logger}` : ""}: ${entry.data}`;
}
