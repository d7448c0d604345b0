import type { ServerStatus } from "../mcp/pool/tool-pool.ts";

export interface McpStartupSummary {
  connected: number;
  failed: number;
  tools: number;
  /** The line the REPL shows; undefined when no server is configured (nothing to say). */
  line: string | undefined;
}

/** `MCP: 2 server(s), 5 tool(s) registered (1 failed: see /mcp)`: one line once the servers are done. */
export function summarizeMcpStartup(statuses: ServerStatus[], registeredTools: number): McpStartupSummary {
  const connected = statuses.filter((s) => s.state === "connected").length;
  const failed = statuses.filter((s) => s.state === "failed" || s.state === "invalid").length;
  const summary = { connected, failed, tools: registeredTools };
  if (statuses.length === 0) return { ...summary, line: undefined };
  const failures = failed ? ` (${failed} failed: see /mcp)` : "";
  return { ...summary, line: `MCP: ${connected} server(s), ${registeredTools} tool(s) registered${failures}` };
}
