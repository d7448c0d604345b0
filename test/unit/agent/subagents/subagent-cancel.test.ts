import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hang, reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { GENERAL_PURPOSE } from "../../../../src/agent/subagents/agent-types.ts";
import { MAX_ANSWER_CHARS, MAX_PARALLEL_SUBAGENTS } from "../../../../src/agent/subagents/subagent-runner.ts";
import { standIn, stopAfterEach } from "../../../helpers/loop-harness.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { isChild, parentWith } from "./parent-agent.ts";

stopAfterEach();
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-subagents-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const tasks = (count: number) => reply(...Array.from({ length: count }, (_, i) => toolUse("task", { description: `job ${i + 1}`, prompt: `do job ${i + 1}` })));

test("cancelling the subagents stops each one at once, the waiting one too; the parent's turn goes on and reads that they were cancelled", async () => {
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return hang("working");
    return toolResultsOf(request).length ? reply(text(toolResultsOf(request).map(resultText).join("\n"))) : tasks(MAX_PARALLEL_SUBAGENTS + 1);
  };
  const { agent, runner } = parentWith(Array.from({ length: 6 }, () => route), [GENERAL_PURPOSE], project);
  const seen: string[][] = [];
  runner.running.onChange(() => seen.push(runner.running.list().map((activity) => `${activity.description}:${activity.state}`)));
  const run = agent.run("do four jobs");
  // Three run (each holds a model request open), the fourth waits for a slot: each is a row.
  await waitFor(() => standIn().requests.length === 1 + MAX_PARALLEL_SUBAGENTS && runner.running.list().length === 4, "three subagents running, one waiting");
  expect(runner.running.list().map((activity) => [activity.name, activity.description, activity.state])).toEqual([
    ["general-purpose", "job 1", "running"],
    ["general-purpose", "job 2", "running"],
    ["general-purpose", "job 3", "running"],
    ["general-purpose", "job 4", "waiting"],
  ]);
  expect(runner.running.cancelAll()).toBe(4);
  const outcome = await run;
  await standIn().hangAbandoned;
  expect(outcome.status).toBe("done");
  const answer = outcome.status === "done" ? outcome.text : "";
  expect(answer.split("\n")).toEqual(Array.from({ length: 4 }, () => expect.stringContaining("the user cancelled this subagent (Esc) before it finished")));
  // No subagent started after the cancel, and none is left.
  expect(standIn().requests.filter(isChild)).toHaveLength(MAX_PARALLEL_SUBAGENTS);
  expect(runner.running.list()).toEqual([]);
  expect(seen.at(-1)).toEqual([]);
});

test("cancelling the turn cancels its subagents with it", async () => {
  const route = (request: RecordedRequest): Reply => (isChild(request) ? hang("working") : tasks(2));
  const { agent, runner } = parentWith([route, route, route], [GENERAL_PURPOSE], project);
  const abort = new AbortController();
  const run = agent.run("two jobs", { signal: abort.signal });
  await waitFor(() => standIn().requests.length === 3, "both subagents asking their model");
  abort.abort();
  expect(await run).toMatchObject({ status: "cancelled" });
  await standIn().hangAbandoned;
  expect(runner.running.list()).toEqual([]);
  const results = agent.conversation.snapshot().flatMap((message) => (typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "tool_result")));
  expect(results.map((block) => resultText(block as never))).toEqual(["Error: the subagent was cancelled by the user", "Error: the subagent was cancelled by the user"]);
});

test("only the subagent's final answer comes back, bounded", async () => {
  const long = "x".repeat(MAX_ANSWER_CHARS + 5_000);
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return request.body.messages.length === 1 ? reply(text("an intermediate thought"), toolUse("glob", { pattern: "*.none" })) : reply(text(long));
    return toolResultsOf(request).length ? reply(text(resultText(toolResultsOf(request)[0]))) : tasks(1);
  };
  const { agent } = parentWith([route, route, route, route], [GENERAL_PURPOSE], project);
  const outcome = await agent.run("one long job");
  const answer = outcome.status === "done" ? outcome.text : "";
  expect(answer).not.toContain("an intermediate thought");
  expect(answer.length).toBeLessThan(MAX_ANSWER_CHARS + 200);
  expect(answer).toEndWith(`[the subagent's answer was cut at 40,000 of its ${(MAX_ANSWER_CHARS + 5_000).toLocaleString("en-US")} characters]`);
});
