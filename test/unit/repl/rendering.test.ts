import { describe, expect, test } from "bun:test";
import { AgentError } from "../../../src/agent/agent-error.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import type { ServerStatus } from "../../../src/mcp/pool/server-pool.ts";
import { summarizeMcpStartup } from "../../../src/repl/mcp-startup.ts";
import { interactivePermissions } from "../../../src/repl/permission-prompt.ts";
import { formatToolCall } from "../../../src/repl/tool-call-line.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";

const call = (input: Record<string, unknown>) => ({ id: "t1", name: "mcp__echo__echo", input });

describe("tool call lines", () => {
  test("a short result stays on the line, quoted, as in the seed", () => {
    expect(formatToolCall(call({ text: "你好" }), { content: "你好", isError: false })).toBe('⏺ mcp__echo__echo {"text":"你好"} → "你好"');
  });

  test("a long result is cut to a few lines with a count of the rest", () => {
    const content = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(formatToolCall(call({}), { content, isError: false }).split("\n")).toEqual([
      "⏺ mcp__echo__echo {} →",
      "    line 1",
      "    line 2",
      "    line 3",
      "    line 4",
      "    … +6 lines",
    ]);
  });

  test("a bash call is its command, bash(…), not its JSON (description, escaped quotes), as Claude Code shows it", () => {
    const bash = { id: "t2", name: "bash", input: { command: 'grep -n "x" a.ts\nwc -l a.ts\u001b[2J', description: "Count" } };
    expect(formatToolCall(bash, { content: "3", isError: false })).toBe('⏺ bash(grep -n "x" a.ts ⏎ wc -l a.ts) → "3"');
    // Without a string command it is shown as any call is.
    expect(formatToolCall({ id: "t3", name: "bash", input: { command: 7 } }, { content: "", isError: false })).toBe('⏺ bash {"command":7} → ""');
  });

  test("escape sequences from a tool never reach the terminal", () => {
    const line = formatToolCall(call({ text: "\u001b[2J" }), { content: "a\u001b[31mred", isError: true });
    // No control character at all: not the result's colour, not the input's clear-screen.
    expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(line).toContain("ared");
  });
});

describe("the MCP startup line", () => {
  const base = { scope: "user" as const, source: "mcp.json", description: "stdio: x" };
  test("counts servers, tools and failures", () => {
    const statuses: ServerStatus[] = [
      { ...base, name: "a", state: "connected", tools: [], serverInfo: undefined, protocolVersion: "2025-06-18" },
      { ...base, name: "b", state: "connected", tools: [], serverInfo: undefined, protocolVersion: "2025-06-18" },
      { ...base, name: "c", state: "failed", reason: "spawn failed", stderr: [] },
      { ...base, name: "d", state: "disabled" },
    ];
    expect(summarizeMcpStartup(statuses, 5).line).toBe("MCP: 2 server(s), 5 tool(s) registered (1 failed: see /mcp)");
  });

  test("says nothing when no server is configured", () => {
    expect(summarizeMcpStartup([], 0).line).toBeUndefined();
  });
});

describe("the permission prompt", () => {
  const tool = { name: "mcp__fs__write", isReadOnly: false } as Tool;

  test("asks with the tool name and arguments; 'always' stops asking for that tool", async () => {
    const questions: string[] = [];
    const printed: string[] = [];
    const answers = ["maybe", "a"];
    const gate = interactivePermissions(async (question) => (questions.push(question), answers.shift() ?? null), { print: (line) => printed.push(line) });
    expect(await gate({ tool, input: { path: "x" } })).toBe("allow");
    expect(await gate({ tool, input: { path: "y" } })).toBe("allow");
    expect(printed).toEqual(["mcp__fs__write wants to run with these arguments:", "  {", '    "path": "x"', "  }"]);
    expect(questions).toEqual(["Allow mcp__fs__write? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects / [s] yes for this session ", "Allow mcp__fs__write? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects / [s] yes for this session "]);
  });

  test("no, end of input and yes", async () => {
    const answer = (value: string | null) => interactivePermissions(async () => value, { print: () => {} });
    expect(await answer("n")({ tool, input: {} })).toBe("stop");
    expect(await answer(null)({ tool, input: {} })).toBe("stop");
    expect(await answer("Y")({ tool, input: {} })).toBe("allow");
  });
});

describe("the turn renderer", () => {
  test("starts a tool line and a retry line on a line of their own after streamed text", () => {
    let out = "";
    const sink = { write: (text: string) => (out += text) };
    const renderer = new TurnRenderer(sink, sink);
    renderer.onModelRequest();
    renderer.onText("Let me look");
    renderer.onToolStart(call({ text: "x" }));
    renderer.onToolResult(call({ text: "x" }), { content: "x", isError: false });
    renderer.onModelRequest();
    renderer.onText("Half a line");
    renderer.onRetry({ error: new AgentError("overloaded", "the Anthropic API is overloaded (529 overloaded_error): Overloaded; try again in a moment", 529, { reason: "the Anthropic API is overloaded (529 overloaded_error): Overloaded" }), retry: 1, maxRetries: 4, delayMs: 1500 });
    renderer.endLine();
    // The unfinished line of the failed attempt was never shown: the retried one shows it, once.
    expect(out).toBe(
      'Let me look\n⏺ mcp__echo__echo {"text":"x"} → "x"\n⎿ the Anthropic API is overloaded (529 overloaded_error): Overloaded; retrying in 1.5s (1/4)\n',
    );
  });
});
