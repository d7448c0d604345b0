import { describe, expect, test } from "bun:test";
import type { TokenUsage } from "../../../src/agent/usage.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { apiError, hang, reply, replyWithUsage, text, thinking } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { agentWith, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

describe("thinking, usage, the model", () => {
  test("with thinking on, the request asks for it, onThinking hears it stream, and the block is sent back", async () => {
    const agent = agentWith([reply(thinking("Let me think about primes."), text("7 is prime.")), reply(text("ok"))], new ToolRegistry(), {
      thinking: { budgetTokens: 2_000 },
    });
    let thought = "";
    const outcome = await agent.run("is 7 prime?", { observer: { onThinking: (delta) => (thought += delta) } });
    expect(outcome).toMatchObject({ status: "done", text: "7 is prime." });
    expect(thought).toBe("Let me think about primes.");
    await agent.run("thanks");
    const [first, second] = standIn().requests;
    expect(first!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2_000 });
    expect(first!.body.max_tokens).toBeGreaterThan(2_000);
    expect(second!.body.messages[1]!.content).toEqual([
      { type: "thinking", thinking: "Let me think about primes.", signature: "sig-standin" },
      { type: "text", text: "7 is prime." },
    ]);
  });

  test("a model whose thinking is adaptive is asked for adaptive thinking, not a budget", async () => {
    const agent = agentWith([reply(text("ok"))], new ToolRegistry(), { model: "claude-opus-5-5", thinking: { budgetTokens: 8_000 } });
    await agent.run("hi");
    expect(standIn().requests[0]!.body.thinking).toEqual({ type: "adaptive" });
  });

  test("without thinking, none is asked for", async () => {
    const agent = agentWith([reply(text("ok"))], new ToolRegistry());
    await agent.run("hi");
    expect(standIn().requests[0]!.body.thinking).toBeUndefined();
  });

  test("each request's usage reaches onUsage and the meter, per model; the model can be switched between prompts", async () => {
    const agent = agentWith(
      [
        replyWithUsage({ input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 300, cache_creation_input_tokens: 40 }, text("one")),
        replyWithUsage({ input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 }, text("two")),
      ],
      new ToolRegistry(),
    );
    const heard: [TokenUsage, string][] = [];
    const first = await agent.run("a", { observer: { onUsage: (usage, model) => heard.push([usage, model]) } });
    expect(first).toMatchObject({ status: "done", usage: { input: 10, output: 20, cacheRead: 300, cacheWrite: 40 } });
    agent.model = "claude-haiku-4-5";
    await agent.run("b", { observer: { onUsage: (usage, model) => heard.push([usage, model]) } });
    expect(standIn().requests.map((r) => r.body.model)).toEqual(["claude-test", "claude-haiku-4-5"]);
    expect(heard.map(([, model]) => model)).toEqual(["claude-test", "claude-haiku-4-5"]);
    expect(agent.usage.byModel()).toEqual([
      { model: "claude-test", usage: { input: 10, output: 20, cacheRead: 300, cacheWrite: 40 }, dollars: undefined },
      { model: "claude-haiku-4-5", usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }, dollars: (1 * 1 + 2 * 5 + 3 * 0.1 + 4 * 1.25) / 1_000_000 },
    ]);
  });

  test("an unknown model's 404 names the three places the model comes from, in one line", async () => {
    const agent = agentWith([apiError(404, "not_found_error", "model: claude-nope")], new ToolRegistry(), { model: "claude-nope" });
    const error = await agent.run("hi").catch((e) => e);
    expect(error.message).toBe(`the model 'claude-nope' was not found: change --model, CAT_CODE_MODEL or "model" in settings.json`);
    expect(agent.conversation.length).toBe(0);
  });

  test("a 400 saying the model is unknown gets the same line; another 400 does not", async () => {
    const agent = agentWith(
      [apiError(400, "invalid_request_error", "Unknown model: claude-typo"), apiError(400, "invalid_request_error", "max_tokens: must be at most 128000 for this model")],
      new ToolRegistry(),
      { model: "claude-typo" },
    );
    expect((await agent.run("hi").catch((e) => e)).message).toBe(`the model 'claude-typo' was not found: change --model, CAT_CODE_MODEL or "model" in settings.json`);
    expect((await agent.run("hi").catch((e) => e)).message).toContain("max_tokens: must be at most 128000");
  });

  test("a cancelled answer is kept as far as it streamed, then the note that it was interrupted, then the next prompt", async () => {
    const agent = agentWith([hang("Half an ans"), reply(text("ok"))], new ToolRegistry());
    const controller = new AbortController();
    let streamed = "";
    const run = agent.run("first", { signal: controller.signal, observer: { onText: (delta) => (streamed += delta) } });
    await waitFor(() => streamed.length > 0, "the answer to start streaming");
    controller.abort();
    expect(await run).toMatchObject({ status: "cancelled" });
    await agent.run("second");
    expect(standIn().requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "first" }] },
      { role: "assistant", content: [{ type: "text", text: "Half an ans" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "[Request interrupted by user]" },
          { type: "text", text: "second", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  test("an answer cancelled before any text leaves only the note: nothing blank is sent as the model's", async () => {
    const agent = agentWith([hang("   "), reply(text("ok"))], new ToolRegistry());
    const controller = new AbortController();
    let streamed = "";
    const run = agent.run("first", { signal: controller.signal, observer: { onText: (delta) => (streamed += delta) } });
    await waitFor(() => streamed.length > 0, "the answer to start streaming");
    controller.abort();
    expect(await run).toMatchObject({ status: "cancelled" });
    await agent.run("second");
    expect(standIn().requests[1]!.body.messages.map((message: { role: string }) => message.role)).toEqual(["user"]);
  });

});
