import { expect, test } from "bun:test";
import type { ServerStatus } from "../../../src/mcp/pool/server-pool.ts";
import { mcpTable } from "../../../src/repl/mcp-table.ts";
import { replLoginHint } from "../../../src/terminal/render-status.ts";

const base = { scope: "user" as const, source: "/home/u/.cat-code/mcp.json" };
const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

test("/mcp: one row per server with state, tools, revision, time to connect, last error or what to do, where it runs", () => {
  const statuses: ServerStatus[] = [
    { ...base, name: "echo", description: "stdio: ./echo.sh", state: "connected", tools: [tool("echo")], serverInfo: undefined, protocolVersion: "2025-06-18", era: "legacy", connectMs: 12 },
    {
      ...base,
      name: "modern",
      description: "http: http://127.0.0.1:9/mcp",
      state: "connected",
      tools: [tool("a"), tool("b")],
      serverInfo: undefined,
      protocolVersion: "2026-07-28",
      era: "modern",
      connectMs: 1530,
      lastError: "the server exited with code 3; its last stderr lines:\nboom",
    },
    { ...base, name: "crashy", description: "stdio: ./crashy", state: "failed", reason: "the server exited with code 7; its last stderr lines:\nboom: out of cheese", stderr: [], lost: true },
    { ...base, name: "linear", description: "http: https://linear.example/mcp", state: "needs-auth", reason: "sign in" },
    { ...base, name: "slow", description: "stdio: ./slow", state: "pending" },
  ];
  expect(mcpTable(statuses, replLoginHint)).toEqual([
    "echo    CONNECTED   1 tool(s)  2025-06-18 (handshake)  12 ms                                                         (stdio: ./echo.sh)",
    "modern  CONNECTED   2 tool(s)  2026-07-28 (stateless)  1.5 s  last error: the server exited with code 3              (http: http://127.0.0.1:9/mcp)",
    "crashy  FAILED                                                the server exited with code 7 → /mcp reconnect crashy  (stdio: ./crashy)",
    "    boom: out of cheese",
    "linear  NEEDS-AUTH                                            run: /mcp login linear                                 (http: https://linear.example/mcp)",
    "slow    PENDING                                                                                                      (stdio: ./slow)",
  ]);
});

test("/mcp: columns empty for every server are left out, and server text cannot reach the terminal raw", () => {
  const statuses: ServerStatus[] = [
    { ...base, name: "evil\u001b[2J", description: "stdio: ./evil", state: "failed", reason: "died \u001b]0;pwned\u0007here", stderr: ["\u001b[31mred\u001b[0m"] },
  ];
  const lines = mcpTable(statuses, replLoginHint);
  expect(lines[0]).toStartWith("evil");
  expect(lines[0]).toContain("FAILED  died");
  expect(lines.join("\n")).not.toContain("\u001b");
  expect(lines[1]).toBe("    stderr: red");
});
