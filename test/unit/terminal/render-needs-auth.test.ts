import { describe, expect, test } from "bun:test";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import type { ServerStatus } from "../../../src/mcp/pool/server-pool.ts";
import { signInNote, summarizeMcpStartup } from "../../../src/repl/mcp-startup.ts";
import { redactStatus, renderStatusLines, replLoginHint, statusToJson } from "../../../src/terminal/render-status.ts";

const base = { scope: "user" as const, source: "/home/u/.cat-code/mcp.json" };
const needsAuth = (name: string, url: string): ServerStatus => ({
  ...base,
  name,
  description: `http: ${url}`,
  state: "needs-auth",
  reason: `'${name}' (${url}) needs you to sign in: run cat-code mcp login ${name}`,
});

describe("a server that needs a sign-in", () => {
  test("mcp list shows NEEDS-AUTH with the command that signs in, not FAILED", () => {
    const lines = renderStatusLines([needsAuth("linear", "https://mcp.linear.app/mcp")]);
    expect(lines).toEqual(["linear  NEEDS-AUTH  run: cat-code mcp login linear  (http: https://mcp.linear.app/mcp)"]);
  });

  test("in the REPL the hint is the slash command", () => {
    const lines = renderStatusLines([needsAuth("linear", "https://mcp.linear.app/mcp")], [], replLoginHint);
    expect(lines[0]).toContain("run: /mcp login linear");
  });

  test("the hint passes the terminal sanitizer like every cell", () => {
    const lines = renderStatusLines([needsAuth("x", "https://h/mcp")], [], () => "cat-code mcp login \u001b[2Jx");
    expect(lines[0]).not.toContain("\u001b");
  });

  test("--json carries the state and the reason", () => {
    const json = statusToJson(needsAuth("linear", "https://mcp.linear.app/mcp"));
    expect(json).toMatchObject({ name: "linear", state: "needs-auth", reason: expect.stringContaining("cat-code mcp login linear") });
  });

  test("redactStatus masks the entry's ${VAR} values in the reason", () => {
    process.env.CAT_CODE_TEST_PATH_SECRET = "s3cr3t-path";
    const entry: ServerEntry = {
      name: "linear",
      ...base,
      ok: true,
      config: { type: "http", url: "https://h/mcp/s3cr3t-path", headers: {} },
      raw: { type: "http", url: "https://h/mcp/${CAT_CODE_TEST_PATH_SECRET}" },
    } as ServerEntry;
    const status = needsAuth("linear", "https://h/mcp/s3cr3t-path");
    const shown = redactStatus(status, [entry]);
    expect(shown.state).toBe("needs-auth");
    expect((shown as { reason: string }).reason).not.toContain("s3cr3t-path");
  });
});

describe("the startup line counts sign-ins apart from failures", () => {
  const connected: ServerStatus = { ...base, name: "a", description: "stdio: a", state: "connected", tools: [], serverInfo: undefined, protocolVersion: "2025-06-18" };

  test("one server that needs a sign-in: the REPL's command, no failure", () => {
    const summary = summarizeMcpStartup([connected, needsAuth("linear", "https://mcp.linear.app/mcp")], 3);
    expect(summary).toMatchObject({ failed: 0, needsAuth: 1 });
    expect(summary.line).toBe("MCP: 1 server(s), 3 tool(s) registered (1 server needs sign-in: /mcp login linear)");
  });

  test("failures and sign-ins side by side", () => {
    const failed: ServerStatus = { ...base, name: "f", description: "stdio: f", state: "failed", reason: "exited", stderr: [] };
    const line = summarizeMcpStartup([failed, needsAuth("a", "https://a/mcp"), needsAuth("b", "https://b/mcp")], 0).line;
    expect(line).toBe("MCP: 0 server(s), 0 tool(s) registered (1 failed: see /mcp; 2 servers need sign-in: /mcp login a, /mcp login b)");
  });

  test("print mode names the CLI's command", () => {
    expect(signInNote(["linear"], (name) => `cat-code mcp login ${name}`)).toBe("1 server needs sign-in: cat-code mcp login linear");
  });
});
