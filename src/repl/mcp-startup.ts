import type { ServerStatus } from "../mcp/index.ts";
import { type LoginHint, replLoginHint } from "../terminal/render-status.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

export interface McpStartupSummary {
  connected: number;
  failed: number;
  /** Servers that wait for an OAuth sign-in: not failures, one command away. */
  needsAuth: number;
  tools: number;
  /** The line the REPL shows; undefined when no server is configured (nothing to say). */
  line: string | undefined;
}

/**
 * `MCP: 2 server(s), 5 tool(s) registered (1 failed: see /mcp)`: one line once the servers are done;
 * servers that wait for a sign-in are counted apart, with the command: `(1 server needs sign-in: /mcp login linear)`.
 */
export function summarizeMcpStartup(statuses: ServerStatus[], registeredTools: number, loginHint: LoginHint = replLoginHint): McpStartupSummary {
  const connected = statuses.filter((s) => s.state === "connected").length;
  const failed = statuses.filter((s) => s.state === "failed" || s.state === "invalid").length;
  const signIns = statuses.filter((s) => s.state === "needs-auth").map((s) => s.name);
  const summary = { connected, failed, needsAuth: signIns.length, tools: registeredTools };
  if (statuses.length === 0) return { ...summary, line: undefined };
  const notes = [failed ? `${failed} failed: see /mcp` : "", signInNote(signIns, loginHint)].filter(Boolean);
  const tail = notes.length ? ` (${notes.join("; ")})` : "";
  return { ...summary, line: `MCP: ${connected} server(s), ${registeredTools} tool(s) registered${tail}` };
}

/** `1 server needs sign-in: /mcp login linear`, or `2 servers need sign-in: /mcp login a, /mcp login b`. */
export function signInNote(names: readonly string[], loginHint: LoginHint): string {
  if (names.length === 0) return "";
  const commands = names.map((name) => sanitizeForTerminal(loginHint(name))).join(", ");
  return names.length === 1 ? `1 server needs sign-in: ${commands}` : `${names.length} servers need sign-in: ${commands}`;
}
