import { describe, expect, test } from "bun:test";
import { withRules } from "../../../src/agent/permission-rules.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { reply, resultText, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, recordingObserver, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

describe("the user's own no (a 'stop' decision) and deny rules", () => {
  test("stop declines that call and the rest of the batch, and the run ends as declined without another request", async () => {
    const registry = new ToolRegistry();
    const first = fakeTool("first");
    const second = fakeTool("second");
    const third = fakeTool("third");
    for (const t of [first, second, third]) registry.register(t.tool);
    const asked: string[] = [];
    const agent = agentWith(
      [reply(toolUse("first", {}, "t1"), toolUse("second", {}, "t2"), toolUse("third", {}, "t3")), reply(text("never sent"))],
      registry,
      { permissions: async ({ tool }) => (asked.push(tool.name), tool.name === "second" ? "stop" : "allow") },
    );
    const { seen, observer } = recordingObserver();
    const outcome = await agent.run("go", { observer });
    expect(outcome).toMatchObject({ status: "declined", requests: 1 });
    expect(asked).toEqual(["first", "second"]);
    expect([first.calls.length, second.calls.length, third.calls.length]).toEqual([1, 0, 0]);
    expect(standIn().requests).toHaveLength(1);
    // Every tool_use is answered, so the user's next message can follow at once.
    const last = agent.conversation.snapshot().at(-1);
    expect(last?.role).toBe("user");
    const results = (last?.content as { tool_use_id: string; content: string; is_error?: boolean }[]).map((r) => [r.tool_use_id, r.is_error, r.content]);
    expect(results[0]).toEqual(["t1", undefined, "first ran"]);
    expect(results[1]?.[2]).toContain("The user declined to run second and stopped the turn");
    expect(results[2]?.[2]).toContain("Not run: the user stopped the turn");
    expect(seen.tools.map((t) => t.call.name)).toEqual(["first", "second", "third"]);
  });

  test("the next prompt after a decline goes with the declined results in one user message", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("risky").tool);
    const agent = agentWith([reply(toolUse("risky", {}, "t1")), reply(text("ok, another way"))], registry, { permissions: async () => "stop" });
    expect((await agent.run("do it")).status).toBe("declined");
    const outcome = await agent.run("use the safe way instead");
    expect(outcome.status).toBe("done");
    const sent = standIn().requests[1]!;
    const lastUser = sent.body.messages.at(-1)!;
    expect(lastUser.role).toBe("user");
    const blocks = lastUser.content as { type: string; text?: string }[];
    expect(blocks.map((b) => b.type)).toEqual(["tool_result", "text"]);
    expect(blocks[1]?.text).toBe("use the safe way instead");
  });

  test("a deny rule refuses even a call that needs no permission, without asking, and names the rule", async () => {
    const registry = new ToolRegistry();
    const reader: Tool = { ...fakeTool("read_file", { readOnly: true }).tool, needsPermission: async () => false };
    const ran: unknown[] = [];
    registry.register({ ...reader, execute: async (input) => (ran.push(input), { content: "secret", isError: false }) });
    const asked: string[] = [];
    const agent = agentWith([reply(toolUse("read_file", { path: ".env" })), reply(text("ok"))], registry, {
      permissions: withRules(() => ({ allow: [], deny: ["Read(.env)"] }), async ({ tool }) => (asked.push(tool.name), "allow"), process.cwd()),
    });
    expect((await agent.run("read it")).status).toBe("done");
    expect(ran).toEqual([]);
    expect(asked).toEqual([]);
    expect(resultText(toolResultsOf(standIn().requests[1]!)[0])).toContain("denied by the rule Read(.env)");
  });
});
