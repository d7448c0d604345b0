import type { ServerPool, ServerStatus } from "../mcp/index.ts";
import { nearestNames } from "../terminal/suggest.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { LoginHint } from "../terminal/render-status.ts";

export interface ReconnectContext {
  pool: ServerPool;
  print(text: string): void;
  /** Ctrl-C or Esc gives the wait up (a server slow to answer); the prompt comes back. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  loginHint: LoginHint;
}

/**
 * `/mcp reconnect <name>` restarts one server (whatever its state, once it may start at all);
 * `/mcp reconnect` restarts every FAILED one. One line per server says how it went.
 */
export async function replReconnect(name: string, context: ReconnectContext): Promise<void> {
  const { pool, print } = context;
  if (name === "") {
    const failed = pool.status().filter((status) => status.state === "failed").map((status) => status.name);
    if (failed.length === 0) return print("No FAILED MCP server to reconnect (/mcp shows them all).");
    print(`Reconnecting ${failed.map((n) => sanitizeForTerminal(n)).join(", ")}…`);
    const statuses = await context.cancellable((signal) => pool.reconnectFailed({ signal }));
    for (const status of statuses) print(outcomeLine(status, context.loginHint));
    return;
  }
  const shown = sanitizeForTerminal(name);
  const entry = pool.entry(name);
  if (!entry) {
    const near = nearestNames(name, pool.status().map((status) => status.name));
    return print(`No MCP server '${shown}'.${near.length ? ` Did you mean ${sanitizeForTerminal(near[0]!)}?` : ""} /mcp lists them.`);
  }
  if (!entry.ok || entry.config.disabled || entry.trust) return print(`'${shown}' is not in use (see /mcp): nothing to reconnect`);
  print(`Reconnecting ${shown}…`);
  const status = await context.cancellable((signal) => pool.reconnect(name, { signal }));
  if (status) print(outcomeLine(status, context.loginHint));
}

function outcomeLine(status: ServerStatus, loginHint: LoginHint): string {
  const name = sanitizeForTerminal(status.name);
  switch (status.state) {
    case "connected":
      return `MCP server '${name}' reconnected: ${status.tools.length} tool(s)`;
    case "needs-auth":
      return `MCP server '${name}' needs a sign-in: ${sanitizeForTerminal(loginHint(status.name))}`;
    case "failed":
      return `MCP server '${name}' failed again: ${sanitizeForTerminal(firstLine(status.reason))}`;
    default:
      return `MCP server '${name}' is ${status.state.toUpperCase()}`;
  }
}
