import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { allowAll } from "../../../src/agent/permission.ts";
import { createModelClient } from "../../../src/agent/model-client.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { AgentRuntime } from "../../../src/repl/agent-runtime.ts";
import { contextText, renderContext } from "../../../src/repl/context-command.ts";
import { startMessagesStandIn, standInTokens, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";

let standIn: MessagesStandIn | undefined;
let dirs: string[] = [];
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function serverTool(server: string, name: string): Tool {
  return {
    name: `mcp__${server}__${name}`,
    description: `${name} on ${server}: ${"a long description ".repeat(10)}`,
    inputSchema: { type: "object", properties: { id: { type: "string" } } },
    isReadOnly: true,
    deferrable: true,
    origin: { server, namePrefix: `mcp__${server}__` },
    execute: async () => ({ content: "", isError: false }),
  };
}

function runtimeWith(toolSearch: string, env: Record<string, string> = {}): AgentRuntime {
  const dir = tempDir("cat-code-context-");
  dirs.push(dir);
  const runtime = new AgentRuntime({ model: "claude-sonnet-4-5", cwd: dir, pool: new ServerPool([]), permissions: allowAll, toolSearch, env: { CAT_CODE_HOME: dir, ...env } });
  for (const name of ["create_issue", "list_issues"]) runtime.registry.register(serverTool("tracker", name));
  runtime.registry.register(serverTool("wiki", "create_page"));
  return runtime;
}

describe("/context", () => {
  test("counted by the API: each part is what it adds to a one-word request, per server, with a bar of the window", async () => {
    standIn = startMessagesStandIn([]);
    const runtime = runtimeWith("always", { ANTHROPIC_API_KEY: "k" });
    runtime.requestTools.load(["mcp__wiki__create_page"]);
    const text = await contextText(runtime, undefined, { client: createModelClient({ apiKey: "k", baseURL: standIn.url }) });
    expect(text).toStartWith("Context of the next request: claude-sonnet-4-5 · ");
    expect(text).toContain("of 200,000 tokens");
    expect(text).toContain("counted by the API");
    expect(text).not.toContain("~estimate");
    expect(standIn.countRequests.length).toBe(8);
    const base = standInTokens({ messages: [{ role: "user", content: "." }] });
    const builtins = runtime.registry.list().filter((tool) => !tool.deferrable);
    const asApi = builtins.map((tool) => ({ name: tool.name, description: tool.description, input_schema: { type: "object", ...tool.inputSchema } }));
    const builtinTokens = standInTokens({ tools: asApi, messages: [{ role: "user", content: "." }] }) - base;
    expect(text).toMatch(new RegExp(`▒ built-in tools \\(${builtins.length}\\) +${builtinTokens.toLocaleString("en-US")} `));
    expect(text).toMatch(/▚ MCP tools loaded \(1\) +[\d,]+ .*\n +wiki \(1 tool\)/);
    expect(text).toMatch(/▞ MCP tools deferred \(2\) +[\d,]+ +[\d.]+% +the search tool and the names; their definitions, ~\d+, are not sent\n +tracker \(2 tools\)/);
    expect(text).toMatch(/· free space +[\d,]+/);
    expect(text).toMatch(/\n {2}\[█[█▓▒▚▞░]*·+\]\n/);
    expect(text.split("\n")[1]!.trim()).toHaveLength(52);
  });

  test("where count_tokens does not answer (a proxy), and without a key, every number is an estimate, marked as such", async () => {
    standIn = startMessagesStandIn([], { countTokens: false });
    const runtime = runtimeWith("never", { ANTHROPIC_API_KEY: "k" });
    const proxied = await contextText(runtime, undefined, { client: createModelClient({ apiKey: "k", baseURL: standIn.url }) });
    expect(proxied).toContain("~estimate (count_tokens did not answer: 404");
    expect(proxied).toMatch(/▚ MCP tools loaded \(3\) +~[\d,]+/);
    expect(proxied).not.toContain("deferred");
    const keyless = await contextText(runtimeWith("never"));
    expect(keyless).toContain("~estimate (no API key)");
  });

  test("a server's name is sanitized before the terminal sees it, and a long list of servers is cut", () => {
    const servers = Array.from({ length: 12 }, (_, i) => ({ server: i === 0 ? "evil\u001b[2Jname" : `s${i}`, tools: 1, tokens: 12 - i }));
    const text = renderContext({ model: "m", window: 1000, counted: "api", parts: [{ key: "mcp-loaded", tokens: 78, count: 12, servers }], total: 78, free: 922 });
    expect(text).not.toContain("\u001b");
    expect(text).toContain("… 2 more servers");
  });
});
