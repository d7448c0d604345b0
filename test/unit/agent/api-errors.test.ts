import { describe, expect, test } from "bun:test";
import { AgentError } from "../../../src/agent/agent-error.ts";
import { AgentLoop } from "../../../src/agent/agent-loop.ts";
import { createModelClient } from "../../../src/agent/model-client.ts";
import { allowAll } from "../../../src/agent/permission.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { apiError, overloaded, reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, recordingObserver, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

describe("AgentLoop: API errors and retries", () => {
  test("529 overloaded is retried with backoff, then the answer arrives", async () => {
    const retry = { baseDelayMs: 1, maxDelayMs: 5 };
    const agent = agentWith([overloaded(), overloaded(), reply(text("finally"))], new ToolRegistry(), { retry });
    const { seen, observer } = recordingObserver();
    const outcome = await agent.run("hi", { observer });
    expect(outcome).toMatchObject({ status: "done", text: "finally" });
    expect(standIn().requests).toHaveLength(3);
    expect(seen.retries.map((r) => [r.retry, r.error.code, r.error.status])).toEqual([
      [1, "overloaded", 529],
      [2, "overloaded", 529],
    ]);
    // The waits come from the policy, doubling (jitter takes up to a quarter off, then rounds).
    expect(seen.retries.map((r) => r.delayMs)).toEqual([retry.baseDelayMs, 2 * retry.baseDelayMs]);
  });

  test("an overload inside an open stream is retried too", async () => {
    const agent = agentWith([{ kind: "stream-error", text: "Par", type: "overloaded_error", message: "Overloaded" }, reply(text("whole"))], new ToolRegistry());
    const { seen, observer } = recordingObserver();
    const outcome = await agent.run("hi", { observer });
    expect(outcome).toMatchObject({ status: "done", text: "whole" });
    expect(seen.retries).toHaveLength(1);
    expect(seen.retries[0]!.error.code).toBe("overloaded");
  });

  test("429 past the retry budget fails with one clear AgentError", async () => {
    const agent = agentWith(
      [1, 2, 3].map(() => apiError(429, "rate_limit_error", "Number of requests has exceeded your rate limit")),
      new ToolRegistry(),
      { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } },
    );
    const error = await agent.run("hi").catch((e) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe("rate_limited");
    expect(error.message).toContain("429");
    expect(error.message).toContain("tried 3 times");
    expect(error.message).not.toContain("\n");
    expect(standIn().requests).toHaveLength(3);
  });

  test("401 is not retried and names ANTHROPIC_API_KEY", async () => {
    const agent = agentWith([apiError(401, "authentication_error", "invalid x-api-key")], new ToolRegistry());
    const error = await agent.run("hi").catch((e) => e);
    expect(error).toMatchObject({ code: "authentication", status: 401 });
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expect(standIn().requests).toHaveLength(1);
  });

  test("an unreachable API is a network error after the retries", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const deadUrl = `http://127.0.0.1:${probe.port}`;
    await probe.stop(true);
    const agent = new AgentLoop({
      client: createModelClient({ apiKey: "k", baseURL: deadUrl }),
      model: "m",
      registry: new ToolRegistry(),
      permissions: allowAll,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await agent.run("hi").catch((e) => e);
    expect(error).toMatchObject({ code: "network" });
    expect(error.message).toContain("cannot reach the Anthropic API");
  });

  test("a prompt whose request failed for good is taken out: the next request carries only the history before it", async () => {
    const agent = agentWith(
      [reply(text("first answer")), apiError(401, "authentication_error", "invalid x-api-key"), apiError(400, "invalid_request_error", "bad"), reply(text("ok"))],
      new ToolRegistry(),
    );
    await agent.run("history");
    await expect(agent.run("err401")).rejects.toMatchObject({ status: 401 });
    await expect(agent.run("err400")).rejects.toMatchObject({ status: 400 });
    expect(agent.conversation.length).toBe(2);
    await agent.run("next");
    const texts = standIn().requests[3]!.body.messages.map((m) => (m.content as { text?: string }[]).map((b) => b.text).join("|"));
    expect(texts).toEqual(["history", "first answer", "next"]);
  });
});
