import type { RecordedRequest, Reply } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import type { AgentLoop } from "../../../../src/agent/agent-loop.ts";
import { createBuiltinTools } from "../../../../src/agent/builtin-tools.ts";
import type { AgentHooks } from "../../../../src/agent/hooks/agent-hooks.ts";
import { createModelClient } from "../../../../src/agent/model-client.ts";
import type { PermissionGate } from "../../../../src/agent/permission.ts";
import type { AgentType } from "../../../../src/agent/subagents/agent-types.ts";
import { SubagentRunner } from "../../../../src/agent/subagents/subagent-runner.ts";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import { agentWith, standIn } from "../../../helpers/loop-harness.ts";

/** A parent loop whose registry has the task tool, its subagents talking to the same stand-in. */
export function parentWith(
  steps: Array<(request: RecordedRequest) => Reply>,
  types: AgentType[],
  project: string,
  extra: { permissions?: PermissionGate; hooks?: AgentHooks } = {},
) {
  const registry = new ToolRegistry();
  let agent: AgentLoop | undefined;
  const permissions: PermissionGate = extra.permissions ?? (async () => "deny" as const);
  const runner = new SubagentRunner({
    parent: () => ({ client: createModelClient({ apiKey: "test-key", baseURL: standIn().url }), model: agent!.model, usage: agent!.usage }),
    registry,
    permissions,
    hooks: extra.hooks,
    types: () => types,
    cwd: project,
  });
  for (const tool of createBuiltinTools({ cwd: project, subagents: runner })) registry.register(tool);
  agent = agentWith(steps, registry, { permissions, hooks: extra.hooks });
  return { agent, registry, runner };
}

/** Whether a request is a subagent's: its system prompt is its type's, or the built-in one. */
export const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("You explore code") || JSON.stringify(request.body.system ?? "").includes("subagent of cat-code");
