import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { AgentHooks } from "../../../../src/agent/hooks/agent-hooks.ts";
import type { HookRunner } from "../../../../src/agent/hooks/hook-runner.ts";
import { withPolicy } from "../../../../src/agent/permission-policy.ts";
import { loadAgentTypes, type AgentType } from "../../../../src/agent/subagents/agent-types.ts";
import { readProjectTrust, recordProjectTrust } from "../../../../src/settings/project-trust.ts";
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

test("a project agent's model needs the project's trust (else the parent's model, and a warning); never todo_write or task, even with tools: *", async () => {
  mkdirSync(join(project, ".claude", "agents"), { recursive: true });
  mkdirSync(join(project, "home", ".claude", "agents"), { recursive: true });
  writeFileSync(join(project, ".claude", "agents", "cloned.md"), "---\nname: cloned\ndescription: Came with the clone\ntools: *\nmodel: opus\n---\nYou explore code for the clone.\n");
  writeFileSync(join(project, "home", ".claude", "agents", "mine.md"), "---\nname: mine\ndescription: The user's own\nmodel: opus\n---\n");
  const env = { CAT_CODE_HOME: join(project, "home", ".cat-code") };
  const sources = { cwd: project, catCodeHome: env.CAT_CODE_HOME, claudeHome: join(project, "home", ".claude") };
  // The same approvals a project's settings model is trusted in (what agent-runtime.ts reads).
  const trusted = () => (key: string) => readProjectTrust(project, env, "projectSettings").trust.trusted.has(key);
  const untrusted = loadAgentTypes({ ...sources, projectModelTrusted: trusted() });
  const cloned = untrusted.types.find((type) => type.name === "cloned")!;
  expect(cloned.model).toBeUndefined();
  expect(untrusted.types.find((type) => type.name === "mine")?.model).toBe("opus");
  expect(untrusted.warnings).toEqual([expect.stringContaining('cloned.md: model: "opus" is ignored, not trusted in this folder')]);
  expect(loadAgentTypes(sources).types.find((type) => type.name === "cloned")?.model).toBeUndefined();
  await recordProjectTrust(project, ['model: "opus"'], "trusted", env, "projectSettings");
  const afterTrust = loadAgentTypes({ ...sources, projectModelTrusted: trusted() });
  expect(afterTrust.types.find((type) => type.name === "cloned")?.model).toBe("opus");
  expect(afterTrust.warnings).toEqual([]);

  // Run untrusted: the child asks on the parent's model, and has every tool but the parent's own.
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return reply(text("child done"));
    return request.body.messages.length === 1 ? reply(toolUse("task", { description: "look", prompt: "look around", subagent_type: "cloned" })) : reply(text("parent done"));
  };
  const { agent } = parentWith([route, route, route], untrusted.types, project);
  expect(await agent.run("delegate")).toMatchObject({ status: "done", text: "parent done" });
  const child = standIn().requests.find((request) => JSON.stringify(request.body.system ?? "").includes("for the clone"))!;
  expect(child.body.model).toBe(agent.model);
  const childTools = child.body.tools?.map((tool) => tool.name) ?? [];
  expect(childTools).toContain("write_file");
  expect(childTools).not.toContain("todo_write");
  expect(childTools).not.toContain("task");
});
