import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { createModelClient } from "../../../src/agent/model-client.ts";
import { allowAll } from "../../../src/agent/permission.ts";
import type { AgentType } from "../../../src/agent/subagents/agent-types.ts";
import { SubagentRunner } from "../../../src/agent/subagents/subagent-runner.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { isAlive } from "../../helpers/keeper-home.ts";
import { agentWith, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** Cancelling a subagent while its command runs leaves no process behind. */
stopAfterEach();
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-subagent-cancel-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const RUNNER: AgentType = { name: "runner", description: "Runs commands", tools: ["Bash"], systemPrompt: "You are the runner subagent." };

test("a subagent cancelled while its bash command runs: the command's process is killed, and the parent reads the cancel", async () => {
  const registry = new ToolRegistry();
  let agent: ReturnType<typeof agentWith> | undefined;
  const runner = new SubagentRunner({
    parent: () => ({ client: createModelClient({ apiKey: "test-key", baseURL: standIn().url }), model: agent!.model, usage: agent!.usage }),
    registry,
    permissions: allowAll,
    types: () => [RUNNER],
    cwd: project,
  });
  for (const tool of createBuiltinTools({ cwd: project, subagents: runner })) registry.register(tool);
  const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("You are the runner subagent");
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return reply(toolUse("bash", { command: "sleep 600 & echo $! > pid; wait" }));
    return toolResultsOf(request).length ? reply(text(resultText(toolResultsOf(request)[0]))) : reply(toolUse("task", { description: "run it", prompt: "run the long job", subagent_type: "runner" }));
  };
  agent = agentWith([route, route, route], registry, { permissions: allowAll });
  const run = agent.run("run the long job in a subagent");
  const pidFile = join(project, "pid");
  const pid = Number(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim(), "the command to start"));
  expect(isAlive(pid)).toBe(true);
  expect(runner.running.list()).toMatchObject([{ name: "runner", tool: "Bash", toolUses: 1 }]);
  runner.running.cancelAll();
  const outcome = await run;
  expect(outcome.status === "done" && outcome.text).toStartWith("Error: the user cancelled this subagent (Esc)");
  await waitFor(() => !isAlive(pid), "the sleep to be gone");
});
