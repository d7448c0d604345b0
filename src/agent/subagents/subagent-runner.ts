import type Anthropic from "@anthropic-ai/sdk";
import { AgentError } from "../agent-error.ts";
import { AgentLoop } from "../agent-loop.ts";
import type { AgentHooks } from "../hooks/agent-hooks.ts";
import { claudeToolName } from "../hooks/hook-config.ts";
import { KNOWN_MODELS } from "../models.ts";
import type { PermissionGate } from "../permission.ts";
import type { Tool, ToolProgress, ToolResult } from "../tool.ts";
import { ToolRegistry } from "../tool-registry.ts";
import type { UsageMeter } from "../usage-meter.ts";
import type { AgentType } from "./agent-types.ts";

/** Subagents at once; more wait for a slot (each is a stream of model requests). */
export const MAX_PARALLEL_SUBAGENTS = 3;
const SUBAGENT_MAX_TURNS = 30;
export const TASK_TOOL = "task";

export interface SubagentRequest {
  type: AgentType;
  description: string;
  prompt: string;
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}

/** What the task tool needs: the agent types there are, and a way to run one. */
export interface SubagentLauncher {
  types(): readonly AgentType[];
  run(request: SubagentRequest): Promise<ToolResult>;
}

export interface SubagentRunnerOptions {
  /** The parent agent's client, model and usage meter; undefined while it cannot exist (no key). */
  parent: () => { client: Anthropic; model: string; usage: UsageMeter } | undefined;
  /** The parent's tools; a child gets some of them, never the task tool. */
  registry: ToolRegistry;
  permissions: PermissionGate;
  hooks?: AgentHooks;
  types: () => readonly AgentType[];
  cwd: string;
}

/**
 * Runs a subagent: a fresh AgentLoop with its type's system prompt, the same model or the one its
 * type names, and a restricted tool set (the read-only tools unless its type lists others). Its
 * permission questions go to the parent's gate, naming it; its tokens count in the parent's meter
 * (so /cost shows them); only its final answer comes back. At most MAX_PARALLEL_SUBAGENTS run at once.
 */
export class SubagentRunner implements SubagentLauncher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: SubagentRunnerOptions) {}

  types(): readonly AgentType[] {
    return this.options.types();
  }

  async run(request: SubagentRequest): Promise<ToolResult> {
    const parent = this.options.parent();
    if (!parent) return { content: "Error: no model client for a subagent", isError: true };
    await this.slot();
    try {
      if (request.signal?.aborted) return { content: "Error: cancelled by the user", isError: true };
      return await this.runChild(request, parent);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async runChild(request: SubagentRequest, parent: { client: Anthropic; model: string; usage: UsageMeter }): Promise<ToolResult> {
    const { type } = request;
    const registry = new ToolRegistry();
    for (const tool of this.toolsFor(type)) registry.register(tool);
    const permissions: PermissionGate = Object.assign((question: Parameters<PermissionGate>[0]) => this.options.permissions({ ...question, requester: type.name }), {
      deniedBy: this.options.permissions.deniedBy,
      allowedBy: this.options.permissions.allowedBy,
    });
    const child = new AgentLoop({
      client: parent.client,
      model: modelFor(type.model, parent.model),
      registry,
      permissions,
      system: `${type.systemPrompt}\n\nWorking directory: ${this.options.cwd}`,
      maxTurns: SUBAGENT_MAX_TURNS,
      hooks: this.options.hooks?.forSubagent(),
    });
    let calls = 0;
    try {
      const outcome = await child.run(request.prompt, {
        signal: request.signal,
        observer: {
          onUsage: (usage, model) => parent.usage.add(model, usage),
          onToolStart: (call) => request.onProgress?.({ progress: ++calls, message: `${type.name}: ${claudeToolName(call.name)}` }),
        },
      });
      switch (outcome.status) {
        case "done":
          return { content: outcome.text || "(the subagent gave no answer)", isError: false };
        case "max_turns":
          return { content: `${outcome.text}\n\n[the subagent stopped after ${outcome.requests} model requests without finishing]`, isError: true };
        case "cancelled":
          return { content: "Error: the subagent was cancelled by the user", isError: true };
        case "declined":
          return { content: "Error: the user declined a tool call of the subagent and stopped it; ask the user how to proceed", isError: true };
        case "blocked":
          return { content: `Error: ${outcome.reason}`, isError: true };
      }
    } catch (error) {
      return { content: `Error: the subagent failed: ${error instanceof AgentError ? error.message : (error as Error).message}`, isError: true };
    }
  }

  /** The tools its type lists (Claude Code's names or ours), or the read-only ones; never the task tool. */
  private toolsFor(type: AgentType): Tool[] {
    const all = this.options.registry.list().filter((tool) => tool.name !== TASK_TOOL);
    if (!type.tools || type.tools.includes("*")) return type.tools ? all : all.filter((tool) => tool.isReadOnly && !tool.name.startsWith("mcp__"));
    const wanted = new Set(type.tools);
    return all.filter((tool) => wanted.has(tool.name) || wanted.has(claudeToolName(tool.name)));
  }

  private async slot(): Promise<void> {
    if (this.running >= MAX_PARALLEL_SUBAGENTS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
  }
}

/** `sonnet`, `opus`, `haiku`: the newest of that family; `inherit` or nothing: the parent's. */
export function modelFor(wanted: string | undefined, parentModel: string): string {
  if (!wanted || wanted === "inherit") return parentModel;
  if (/^[a-z]+$/.test(wanted)) return KNOWN_MODELS.find((info) => info.id.startsWith(`claude-${wanted}-`))?.id ?? parentModel;
  return wanted;
}
