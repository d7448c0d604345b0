import { describe, expect, test } from "bun:test";
import type { CompactionNotice } from "../../../src/agent/agent-observer.ts";
import { AgentError } from "../../../src/agent/agent-error.ts";
import { SUMMARY_PREFIX } from "../../../src/agent/compaction.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import {
  apiError,
  promptTooLong,
  reply,
  replyWithUsage,
  text,
  toolUse,
  type ContentBlock,
  type RecordedRequest,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

const IMAGE = { type: "image" as const, mediaType: "image/png" as const, data: "iVBORw0KGgo=" };

function blocksOf(request: RecordedRequest): ContentBlock[] {
  return request.body.messages.flatMap((message) => (typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content));
}

function lastText(request: RecordedRequest): string {
  const last = request.body.messages.at(-1)!;
  const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
  return String(blocks.at(-1)?.text ?? "");
}

/** Every tool_result of a request answers a tool_use of the assistant message just before it. */
function pairsIntact(request: RecordedRequest): boolean {
  return request.body.messages.every((message, i) => {
    if (typeof message.content === "string") return true;
    const results = message.content.filter((block) => block.type === "tool_result");
    const before = request.body.messages[i - 1];
    const uses = before && typeof before.content !== "string" ? before.content.filter((block) => block.type === "tool_use").map((block) => block.id) : [];
    return results.every((result) => uses.includes(result.tool_use_id));
  });
}

function compactions() {
  const notices: CompactionNotice[] = [];
  return { notices, observer: { onCompaction: (notice: CompactionNotice) => notices.push(notice) } };
}

describe("compaction", () => {
  test("/compact sends the conversation with the summary request and replaces it by the summary; images are gone", async () => {
    const agent = agentWith(
      [reply(text("I see a picture.")), reply(text("Answer two.")), reply(text("SUMMARY: the user showed a picture and asked two things.")), reply(text("Going on."))],
      new ToolRegistry(),
    );
    await agent.run([{ type: "text", text: "look at this" }, IMAGE]);
    await agent.run("second question");
    const { notices, observer } = compactions();
    const notice = await agent.compact({ instructions: "keep the picture's name", observer });
    expect(notice).toEqual({ reason: "manual", before: 4, after: 1 });
    expect(notices).toEqual([notice!]);

    const summaryRequest = standIn().requests[2]!;
    // The whole conversation goes with it (a cached prefix), images left out, then the request to summarise.
    expect(summaryRequest.body.messages).toHaveLength(5);
    expect(blocksOf(summaryRequest).some((block) => block.type === "image")).toBe(false);
    expect(blocksOf(summaryRequest)[1]).toMatchObject({ type: "text", text: "[image left out of the summary request]" });
    expect(lastText(summaryRequest)).toContain("write a summary of the conversation so far");
    expect(lastText(summaryRequest)).toContain("keep the picture's name");
    expect((summaryRequest.body as { tool_choice?: unknown }).tool_choice).toEqual({ type: "none" });

    await agent.run("go on");
    const next = standIn().requests[3]!;
    expect(next.body.messages).toHaveLength(1);
    expect(next.body.messages[0]!.content).toEqual([
      { type: "text", text: `${SUMMARY_PREFIX}SUMMARY: the user showed a picture and asked two things.` },
      { type: "text", text: "go on", cache_control: { type: "ephemeral" } },
    ]);
  });

  test("a compaction that fails leaves the conversation as it was and says why", async () => {
    const agent = agentWith([reply(text("hello")), apiError(400, "invalid_request_error", "something is wrong")], new ToolRegistry());
    await agent.run("hi");
    const before = agent.conversation.snapshot();
    const { notices, observer } = compactions();
    const error = await agent.compact({ observer }).catch((e) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error.message).toContain("something is wrong");
    expect(agent.conversation.snapshot()).toEqual(before);
    expect(notices).toEqual([]);
  });

  test("nothing to compact in an empty conversation: no request", async () => {
    const agent = agentWith([], new ToolRegistry());
    expect(await agent.compact()).toBeUndefined();
    expect(standIn().requests).toHaveLength(0);
  });

  test("near the context window the conversation is compacted before the next request, and that is announced", async () => {
    const agent = agentWith(
      [replyWithUsage({ input_tokens: 100, cache_read_input_tokens: 700, output_tokens: 60 }, text("a long answer")), reply(text("the summary")), reply(text("fresh"))],
      new ToolRegistry(),
      { contextWindow: 1_000 },
    );
    await agent.run("first");
    const { notices, observer } = compactions();
    const outcome = await agent.run("second", { observer });
    expect(outcome).toMatchObject({ status: "done", text: "fresh" });
    expect(notices).toEqual([{ reason: "auto", before: 3, after: 1 }]);
    const [, summaryRequest, next] = standIn().requests;
    // The pending prompt is not summarised: it is sent after the summary.
    expect(summaryRequest!.body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(lastText(summaryRequest!)).toContain("write a summary");
    expect(blocksOf(summaryRequest!).some((block) => block.text === "second")).toBe(false);
    expect(next!.body.messages).toHaveLength(1);
    expect(blocksOf(next!).map((block) => block.text)).toEqual([`${SUMMARY_PREFIX}the summary`, "second"]);
    // The run's usage counts the summary request too (the stand-in reports 25 in, 12 out by default).
    expect(outcome.status === "done" && outcome.usage).toEqual({ input: 50, output: 24, cacheRead: 0, cacheWrite: 0 });
  });

  test("right after a compaction, a request still near the window does not compact the lone summary again", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("look", { readOnly: true }).tool);
    const full = { input_tokens: 950, output_tokens: 10 };
    const agent = agentWith(
      [replyWithUsage(full, text("long")), reply(text("the summary")), replyWithUsage(full, toolUse("look", {}, "t1")), reply(text("done"))],
      registry,
      { contextWindow: 1_000, permissions: async () => "allow" },
    );
    await agent.run("first");
    const { notices, observer } = compactions();
    expect(await agent.run("second", { observer })).toMatchObject({ status: "done", text: "done" });
    expect(notices.map((n) => n.reason)).toEqual(["auto"]);
    expect(standIn().requests).toHaveLength(4);
  });

  test("below the threshold, or with autoCompact off, nothing is compacted", async () => {
    const usage = { input_tokens: 100, cache_read_input_tokens: 700, output_tokens: 60 };
    const agent = agentWith([replyWithUsage(usage, text("one")), reply(text("two"))], new ToolRegistry(), { contextWindow: 1_000, autoCompact: false });
    await agent.run("first");
    await agent.run("second");
    expect(standIn().requests[1]!.body.messages).toHaveLength(3);
  });

  test("'prompt is too long' compacts once and retries the request; the tool_use it answers stays with its results", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("look", { readOnly: true }).tool);
    const agent = agentWith(
      [reply(text("earlier answer")), reply(toolUse("look", {}, "t1")), promptTooLong(), reply(text("summary of it")), reply(text("done now"))],
      registry,
      { permissions: async () => "allow" },
    );
    await agent.run("earlier");
    const { notices, observer } = compactions();
    const outcome = await agent.run("look at it", { observer });
    expect(outcome).toMatchObject({ status: "done", text: "done now" });
    expect(notices).toEqual([{ reason: "too-long", before: 5, after: 3 }]);
    const retried = standIn().requests[4]!;
    expect(retried.body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(blocksOf(retried)[0]).toMatchObject({ text: `${SUMMARY_PREFIX}summary of it` });
    expect(pairsIntact(retried)).toBe(true);
    expect(blocksOf(retried).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)).toEqual(["t1"]);
  });

  test("'prompt is too long' again after the compaction: the error stands and the prompt is taken out", async () => {
    const agent = agentWith([reply(text("old answer")), promptTooLong(), reply(text("summary")), promptTooLong()], new ToolRegistry());
    await agent.run("old");
    const error = await agent.run("a huge paste").catch((e) => e);
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toContain("prompt is too long");
    // The compaction stays (it worked); the prompt that did not fit is gone.
    expect(agent.conversation.snapshot()).toEqual([{ role: "user", content: [{ type: "text", text: `${SUMMARY_PREFIX}summary` }] }]);
    expect(standIn().requests).toHaveLength(4);
  });

  test("a summary request that is itself too long leaves out the oldest turns, a tool_result never without its tool_use", async () => {
    const registry = new ToolRegistry();
    registry.register(fakeTool("look", { readOnly: true }).tool);
    const steps = [];
    for (let i = 0; i < 4; i++) steps.push(reply(toolUse("look", { text: `${i}` }, `t${i}`)), reply(text(`answer ${i}`)));
    const agent = agentWith(
      [...steps, apiError(400, "invalid_request_error", "prompt is too long: 300000 tokens > 200000 maximum"), reply(text("the summary"))],
      registry,
      { permissions: async () => "allow" },
    );
    for (let i = 0; i < 4; i++) await agent.run(`prompt ${i}`);
    expect(agent.conversation.length).toBe(16);
    const notice = await agent.compact();
    expect(notice).toEqual({ reason: "manual", before: 16, after: 1 });
    const [tooLong, shorter] = standIn().requests.slice(-2);
    // The 16 messages and the summary request; then, about 0.9 × 200000/300000 of them.
    expect(tooLong!.body.messages).toHaveLength(17);
    expect(shorter!.body.messages.length).toBeLessThan(12);
    expect(shorter!.body.messages[0]!.role).toBe("user");
    expect(blocksOf(shorter!)[0]).toMatchObject({ text: "[The oldest part of the conversation was left out of this summary: it did not fit.]" });
    expect(pairsIntact(shorter!)).toBe(true);
    expect(lastText(shorter!)).toContain("write a summary");
    expect(agent.conversation.snapshot()[0]!.content).toEqual([{ type: "text", text: `${SUMMARY_PREFIX}the summary` }]);
  });
});
