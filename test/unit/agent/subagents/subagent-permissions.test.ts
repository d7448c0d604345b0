import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { AgentHooks } from "../../../../src/agent/hooks/agent-hooks.ts";
import type { HookRunner } from "../../../../src/agent/hooks/hook-runner.ts";
import { withPolicy } from "../../../../src/agent/permission-policy.ts";
import type { AgentType } from "../../../../src/agent/subagents/agent-types.ts";
import { standIn, stopAfterEach } from "../../../helpers/loop-harness.ts";
import { isChild, parentWith } from "./parent-agent.ts";

stopAfterEach();
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-subagent-perms-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const WORKER: AgentType = { name: "worker", description: "Does anything", systemPrompt: "You explore code and may run commands.", tools: ["*"] };

/** A PreToolUse hook that answers allow for every call, without a process (the hook protocol is tested in test/process). */
class AllowingHooks extends AgentHooks {
  override preToolUse = async () => ({ decision: "allow" as const });
}
const noRunner = { has: () => false } as unknown as HookRunner;

/** The parent delegates; its child tries `touch made`; the parent's model ends with what came back. */
function delegatingSteps(): Array<(request: RecordedRequest) => Reply> {
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return toolResultsOf(request).length ? reply(text(`child saw: ${resultText(toolResultsOf(request)[0])}`)) : reply(toolUse("bash", { command: "touch made" }));
    return request.body.messages.length === 1 ? reply(toolUse("task", { description: "make", prompt: "make a file", subagent_type: "worker" })) : reply(text(resultText(toolResultsOf(request)[0])));
  };
  return [route, route, route, route];
}

for (const withHook of [false, true]) {
  test(`plan mode refuses a subagent's writing call with plan mode's message${withHook ? ", also when a PreToolUse hook answers allow" : ""}`, async () => {
    const asked: string[] = [];
    const permissions = withPolicy({ rules: () => ({ allow: [], deny: [] }), mode: () => "plan", cwd: project }, async ({ tool }) => (asked.push(tool.name), "allow"));
    const hooks = withHook ? new AllowingHooks(noRunner, project) : undefined;
    const { agent } = parentWith(delegatingSteps(), [WORKER], project, { permissions, hooks });
    const outcome = await agent.run("delegate");
    expect(outcome).toMatchObject({ status: "done" });
    expect(outcome.status === "done" ? outcome.text : "").toContain("child saw: Plan mode is on: bash was NOT run");
    expect(existsSync(join(project, "made"))).toBe(false);
    expect(asked).toEqual([]);
    expect(standIn().requests.filter(isChild)).toHaveLength(2);
  });
}
