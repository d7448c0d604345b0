import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { reply, text, toolUse, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

/** Every block of a request that carries a cache_control mark, by where it is. */
function breakpoints(request: RecordedRequest): string[] {
  const marked: string[] = [];
  const system = request.body.system as { cache_control?: unknown }[] | undefined;
  system?.forEach((block, i) => block.cache_control && marked.push(`system[${i}]`));
  request.body.tools?.forEach((tool) => tool.cache_control && marked.push(`tool ${tool.name}`));
  request.body.messages.forEach((message, m) => {
    if (typeof message.content === "string") return;
    message.content.forEach((block, b) => block.cache_control && marked.push(`messages[${m}].content[${b}]`));
  });
  return marked;
}

describe("prompt caching", () => {
  test("the system prompt, the last tool and the last block of the last user message are marked, and nothing else", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("first_tool", { readOnly: true }).tool);
    registry.register(fakeTool("last_tool", { readOnly: true }).tool);
    const agent = agentWith([reply(toolUse("first_tool", {})), reply(text("done")), reply(text("again"))], registry, {
      system: "You are a test.",
      permissions: async () => "allow",
    });
    await agent.run("hello");
    await agent.run("more");
    const [first, second, third] = standIn().requests;
    expect(first!.body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
    expect(breakpoints(first!)).toEqual(["system[0]", "tool last_tool", "messages[0].content[0]"]);
    // After a tool call, the mark moves to the tool_result: the whole turn so far is read from the cache next time.
    expect(breakpoints(second!)).toEqual(["system[0]", "tool last_tool", "messages[2].content[0]"]);
    expect(second!.body.messages[2]!.content).toEqual([expect.objectContaining({ type: "tool_result", cache_control: { type: "ephemeral" } })]);
    expect(breakpoints(third!)).toEqual(["system[0]", "tool last_tool", "messages[4].content[0]"]);
    for (const request of standIn().requests) expect(breakpoints(request).length).toBeLessThanOrEqual(4);
  });

  test("a system prompt given as a function is asked at every request", async () => {
    let calls = 0;
    const agent = agentWith([reply(text("one")), reply(text("two"))], new ToolRegistry(), { system: () => `system #${++calls}` });
    await agent.run("a");
    await agent.run("b");
    expect(standIn().requests.map((r) => (r.body.system as { text: string }[])[0]!.text)).toEqual(["system #1", "system #2"]);
  });
});
