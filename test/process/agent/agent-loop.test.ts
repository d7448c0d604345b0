import { describe, expect, test } from "bun:test";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_TOKENS } from "../../../src/agent/agent-loop.ts";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { declineAll, type PermissionRequest } from "../../../src/agent/permission.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { hang, reply, resultText, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { agentWith, current, fakeTool, recordingObserver, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

const ECHO_SERVER = join(import.meta.dir, "../../../fixtures/echo-server.sh");

stopAfterEach();

describe("AgentLoop against the Messages API stand-in", () => {
  test("a turn calls mcp__echo__echo through a real MCP pool and answers with its result", async () => {
    const entry = parseServerEntry("echo", { command: ECHO_SERVER }, "flag", "test", {});
    const pool = (current.pool = new ServerPool([entry]));
    await pool.connectAll();
    const registry = new ToolRegistry();
    expect(pool.registerInto(registry)).toBe(1);

    const agent = agentWith(
      [
        reply(text("Calling echo."), toolUse("mcp__echo__echo", { text: "你好" })),
        (request) => reply(text(`The echo tool said: ${resultText(toolResultsOf(request)[0])}`)),
      ],
      registry,
    );
    const { seen, observer } = recordingObserver();
    const outcome = await agent.run("use the echo tool to say 你好", { observer });

    expect(outcome).toMatchObject({ status: "done", text: "The echo tool said: 你好", requests: 2 });
    expect(seen.text).toBe("Calling echo.The echo tool said: 你好");
    expect(seen.tools.map((t) => [t.call.name, t.call.input, t.result])).toEqual([
      ["mcp__echo__echo", { text: "你好" }, { content: "你好", isError: false }],
    ]);
    const [first, second] = standIn().requests;
    expect(first!.body.stream).toBe(true);
    expect(first!.body.model).toBe("claude-test");
    expect(first!.body.max_tokens).toBe(DEFAULT_MAX_TOKENS);
    expect(first!.body.tools).toEqual([
      {
        name: "mcp__echo__echo",
        description: "Echo back the input text",
        input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        // The last tool definition is a prompt-caching breakpoint.
        cache_control: { type: "ephemeral" },
      },
    ]);
    // This SDK sends the API key as a bearer token.
    expect(first!.headers.get("authorization")).toBe("Bearer test-key");
    const results = toolResultsOf(second!);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ type: "tool_result", content: "你好" });
    expect(results[0]!.is_error).toBeUndefined();
    // The assistant's tool_use is in the history the second request carries.
    expect(second!.body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  test("a failing tool is answered with is_error and the conversation goes on", async () => {
    const registry = new ToolRegistry();
    const failing = fakeTool("explode", { result: () => ({ content: "Error: it blew up", isError: true }) });
    registry.register(failing.tool);
    const agent = agentWith([reply(toolUse("explode", {})), reply(text("It failed, sorry."))], registry);
    const outcome = await agent.run("try it");
    expect(outcome).toMatchObject({ status: "done", text: "It failed, sorry." });
    expect(toolResultsOf(standIn().requests[1]!)).toEqual([
      expect.objectContaining({ type: "tool_result", content: "Error: it blew up", is_error: true }),
    ]);
  });

  test("a tool that throws despite its contract still becomes an is_error result", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("broken", { result: () => { throw new Error("kaboom"); } }).tool);
    const agent = agentWith([reply(toolUse("broken", {})), reply(text("ok"))], registry);
    await agent.run("go");
    const [result] = toolResultsOf(standIn().requests[1]!);
    expect(result).toMatchObject({ is_error: true });
    expect(resultText(result)).toContain("kaboom");
  });

  test("an unknown tool name gets an is_error result naming the tools that exist, not a crash", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("real_tool").tool);
    const agent = agentWith([reply(toolUse("no_such_tool", { x: 1 })), reply(text("I see."))], registry);
    const outcome = await agent.run("go");
    expect(outcome.status).toBe("done");
    const [result] = toolResultsOf(standIn().requests[1]!);
    expect(result).toMatchObject({ is_error: true });
    expect(resultText(result)).toContain("no tool named 'no_such_tool'");
    expect(resultText(result)).toContain("real_tool");
  });

  test("a declined permission gives the model an is_error result and the tool never runs", async () => {
    const registry = new ToolRegistry();
    const writer = fakeTool("mcp__fs__write");
    registry.register(writer.tool);
    const asked: PermissionRequest[] = [];
    const agent = agentWith([reply(toolUse("mcp__fs__write", { text: "x" })), reply(text("Understood."))], registry, {
      permissions: async (request) => {
        asked.push(request);
        return "deny";
      },
    });
    await agent.run("write it");
    expect(asked.map((a) => [a.tool.name, a.input])).toEqual([["mcp__fs__write", { text: "x" }]]);
    expect(writer.calls).toEqual([]);
    const [result] = toolResultsOf(standIn().requests[1]!);
    expect(result).toMatchObject({ is_error: true });
    expect(resultText(result)).toContain("The user declined to run mcp__fs__write");
  });

  test("read-only calls that need no permission run unasked and side by side; others alone, in order", async () => {
    const registry = new ToolRegistry();
    let running = 0;
    let started = 0;
    const tool = (name: string, readOnly: boolean): Tool => ({
      ...fakeTool(name, { readOnly }).tool,
      needsPermission: async () => !readOnly,
      async execute() {
        running++;
        started++;
        // Side by side means each read-only call sees the other start; one at a time would time out here.
        if (readOnly) await waitFor(() => started === 2, "both read-only calls running at once", { timeoutMs: 5_000 });
        else expect(running).toBe(1);
        running--;
        return { content: `${name} done`, isError: false };
      },
    });
    for (const t of [tool("look_a", true), tool("look_b", true), tool("change", false)]) registry.register(t);
    const asked: string[] = [];
    const agent = agentWith(
      [reply(toolUse("look_a", {}, "t1"), toolUse("look_b", {}, "t2"), toolUse("change", {}, "t3")), reply(text("done"))],
      registry,
      { permissions: async ({ tool }) => (asked.push(tool.name), "allow") },
    );
    await agent.run("go");
    expect(asked).toEqual(["change"]);
    expect(toolResultsOf(standIn().requests[1]!).map((r) => [r.tool_use_id, r.content])).toEqual([
      ["t1", "look_a done"],
      ["t2", "look_b done"],
      ["t3", "change done"],
    ]);
  });

  test("a tool that does not say whether it needs permission is asked about, read-only or not", async () => {
    const registry = new ToolRegistry();
    const looker = fakeTool("look", { readOnly: true });
    registry.register(looker.tool);
    const asked: PermissionRequest[] = [];
    const agent = agentWith([reply(toolUse("look", { text: "x" })), reply(text("ok"))], registry, {
      permissions: async (request) => (asked.push(request), "deny"),
    });
    await agent.run("look");
    expect(asked.map((a) => [a.tool.name, a.preview])).toEqual([["look", { kind: "arguments", input: { text: "x" } }]]);
    expect(looker.calls).toEqual([]);
  });

  test("an MCP server's readOnlyHint does not skip the question", async () => {
    const entry = parseServerEntry("echo", { command: ECHO_SERVER }, "flag", "test", {});
    const pool = (current.pool = new ServerPool([entry]));
    await pool.connectAll();
    const registry = new ToolRegistry();
    pool.registerInto(registry);
    // The echo server marks its tool readOnlyHint: true.
    expect(registry.get("mcp__echo__echo")?.isReadOnly).toBe(true);
    const asked: string[] = [];
    const agent = agentWith([reply(toolUse("mcp__echo__echo", { text: "hi" })), reply(text("ok"))], registry, {
      permissions: async ({ tool }) => (asked.push(tool.name), "deny"),
    });
    await agent.run("echo");
    expect(asked).toEqual(["mcp__echo__echo"]);
    expect(resultText(toolResultsOf(standIn().requests[1]!)[0])).toContain("The user declined to run mcp__echo__echo");
  });

  test("read-only built-ins run unasked inside the project, and ask outside it (symlinks resolved)", async () => {
    const project = await mkdtemp(join(tmpdir(), "cat-code-project-"));
    const elsewhere = await mkdtemp(join(tmpdir(), "cat-code-elsewhere-"));
    try {
      await writeFile(join(project, "inside.txt"), "inside\n");
      await writeFile(join(elsewhere, "secret.txt"), "secret\n");
      await symlink(join(elsewhere, "secret.txt"), join(project, "link.txt"));
      const registry = new ToolRegistry();
      for (const tool of createBuiltinTools({ cwd: project })) registry.register(tool);
      const asked: unknown[] = [];
      const agent = agentWith(
        [
          reply(
            toolUse("read_file", { path: "inside.txt" }, "r1"),
            toolUse("read_file", { path: join(elsewhere, "secret.txt") }, "r2"),
            toolUse("read_file", { path: "link.txt" }, "r3"),
            toolUse("grep", { pattern: "secret", path: elsewhere }, "r4"),
            toolUse("glob", { pattern: "*", path: ".." }, "r5"),
            toolUse("glob", { pattern: "*.txt" }, "r6"),
          ),
          reply(text("ok")),
        ],
        registry,
        { permissions: async ({ tool, input }) => (asked.push([tool.name, input]), "deny") },
      );
      await agent.run("look around");
      expect(asked).toEqual([
        ["read_file", { path: join(elsewhere, "secret.txt") }],
        ["read_file", { path: "link.txt" }],
        ["grep", { pattern: "secret", path: elsewhere }],
        ["glob", { pattern: "*", path: ".." }],
      ]);
      const results = toolResultsOf(standIn().requests[1]!).map((r) => [r.tool_use_id, resultText(r)]);
      expect(results[0]).toEqual(["r1", "     1\tinside"]);
      expect(results.slice(1, 5).every(([, content]) => (content as string).includes("The user declined"))).toBe(true);
      expect(results[5]).toEqual(["r6", "inside.txt"]);
    } finally {
      await rm(project, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  test("cancelling mid-stream returns 'cancelled' at once and closes the stream", async () => {
    const agent = agentWith([hang("Thinking about it")], new ToolRegistry());
    const controller = new AbortController();
    const { seen, observer } = recordingObserver();
    const run = agent.run("hi", { signal: controller.signal, observer });
    await standIn().hanging;
    await waitFor(() => seen.text.includes("Thinking"), "the streamed text to reach the observer");
    controller.abort();
    expect(await run).toMatchObject({ status: "cancelled" });
    expect(seen.text).toContain("Thinking");
    await standIn().hangAbandoned;
  });

  test("cancelling while a tool runs aborts the tool's signal and records a result for every call", async () => {
    const registry = new ToolRegistry();
    let toolSignal: AbortSignal | undefined;
    let started = 0;
    const controller = new AbortController();
    registry.register({
      name: "wait",
      description: "waits",
      inputSchema: { type: "object" },
      isReadOnly: true,
      needsPermission: async () => false,
      execute: (_input, context) =>
        new Promise((resolve) => {
          toolSignal = context?.signal;
          context?.signal?.addEventListener("abort", () => resolve({ content: "aborted", isError: true }));
          // Both calls run side by side; once both wait, the user cancels.
          if (++started === 2) controller.abort();
        }),
    });
    const agent = agentWith([reply(toolUse("wait", {}, "w1"), toolUse("wait", {}, "w2")), reply(text("next"))], registry);
    expect(await agent.run("go", { signal: controller.signal })).toMatchObject({ status: "cancelled" });
    expect(toolSignal?.aborted).toBe(true);
    // The next prompt sends the results of both calls, then the note that the turn was interrupted, then its own text.
    await agent.run("again");
    const messages = standIn().requests[1]!.body.messages;
    const lastUser = messages.at(-1)!.content as { type: string; tool_use_id?: string; text?: string }[];
    expect(lastUser.map((b) => b.tool_use_id ?? b.text)).toEqual(["w1", "w2", "[Request interrupted by user for tool use]", "again"]);
  });

  test("the max-turns limit stops a model that keeps calling tools", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("again", { readOnly: true }).tool);
    const agent = agentWith([1, 2, 3].map(() => reply(text("more"), toolUse("again", {}))), registry, { maxTurns: 2 });
    expect(await agent.run("loop")).toMatchObject({ status: "max_turns", requests: 2 });
    expect(standIn().requests).toHaveLength(2);
  });

  test("print mode's declineAll declines with the same result the REPL gives", async () => {
    const registry = new ToolRegistry();
    const writer = fakeTool("write_file");
    registry.register(writer.tool);
    const agent = agentWith([reply(toolUse("write_file", {})), reply(text("ok"))], registry, { permissions: declineAll });
    await agent.run("write");
    expect(writer.calls).toEqual([]);
    expect(resultText(toolResultsOf(standIn().requests[1]!)[0])).toContain("The user declined to run write_file");
  });
});
