import type Anthropic from "@anthropic-ai/sdk";
import { AgentError } from "../agent-error.ts";
import { AgentLoop } from "../agent-loop.ts";
import type { AgentHooks } from "../hooks/agent-hooks.ts";
import { claudeToolName } from "../hooks/hook-config.ts";
import { KNOWN_MODELS } from "../models.ts";
import type { PermissionGate } from "../permission.ts";
import { EXIT_PLAN_MODE } from "../permission-policy.ts";
import { TODO_WRITE } from "../todo-list.ts";
import type { Tool, ToolProgress, ToolResult } from "../tool.ts";
import { ToolRegistry } from "../tool-registry.ts";
import type { UsageMeter } from "../usage-meter.ts";
import type { AgentType } from "./agent-types.ts";
import { cancelledAlone, RunningSubagents } from "./running-subagents.ts";
import { cutText } from "../../system/cut-text.ts";

/** Subagents at once; more wait for a slot (each is a stream of model requests). */
export const MAX_PARALLEL_SUBAGENTS = 3;
const SUBAGENT_MAX_TURNS = 30;
/** A subagent's answer in the parent's context: a report, about 10k tokens at most. */
export const MAX_ANSWER_CHARS = 40_000;
export const TASK_TOOL = "task";
/** Tools that act on the parent's session, never given to a subagent, even with `tools: *`. */
const PARENT_ONLY_TOOLS = new Set([TASK_TOOL, TODO_WRITE, EXIT_PLAN_MODE]);

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
  /** What runs now, one row each in the REPL; Esc cancels them (`cancelAll`). */
  readonly running = new RunningSubagents();
  private slotsTaken = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: SubagentRunnerOptions) {}

  types(): readonly AgentType[] {
    return this.options.types();
  }

  async run(request: SubagentRequest): Promise<ToolResult> {
    const parent = this.options.parent();
    if (!parent) return { content: "Error: no model client for a subagent", isError: true };
    const { id, signal } = this.running.add(request.type.name, request.description, request.signal);
    try {
      if (!(await this.slot(signal))) return cancelledResult(signal);
      try {
        this.running.update(id, { state: "running" });
        return await this.runChild({ ...request, signal }, id, parent);
      } finally {
        this.slotsTaken--;
        this.waiting.shift()?.();
      }
    } finally {
      this.running.remove(id);
    }
  }

  private async runChild(request: SubagentRequest & { signal: AbortSignal }, id: number, parent: { client: Anthropic; model: string; usage: UsageMeter }): Promise<ToolResult> {
    const { type } = request;
    const registry = new ToolRegistry();
    for (const tool of this.toolsFor(type)) registry.register(tool);
    // Everything the parent's gate holds, refusal too: plan mode (and its message) binds a child's calls.
    const permissions: PermissionGate = Object.assign((question: Parameters<PermissionGate>[0]) => this.options.permissions({ ...question, requester: type.name }), {
      refusal: this.options.permissions.refusal,
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
      hooks: this.options.hooks?.forSubagent({ id: `subagent-${id}`, type: type.name }),
    });
    let calls = 0;
    try {
      const outcome = await child.run(request.prompt, {
        signal: request.signal,
        observer: {
          onUsage: (usage, model) => parent.usage.add(model, usage),
          onModelRequest: () => this.running.update(id, { tool: undefined }),
          onToolStart: (call) => {
            this.running.update(id, { tool: claudeToolName(call.name), toolUses: ++calls });
            request.onProgress?.({ progress: calls, message: `${type.name}: ${claudeToolName(call.name)}` });
          },
        },
      });
      switch (outcome.status) {
        case "done":
          return { content: boundedAnswer(outcome.text) || "(the subagent gave no answer)", isError: false };
        case "max_turns":
          return { content: `${boundedAnswer(outcome.text)}\n\n[the subagent stopped after ${outcome.requests} model requests without finishing]`, isError: true };
        case "cancelled":
          return cancelledResult(request.signal);
        case "declined":
          return { content: "Error: the user declined a tool call of the subagent and stopped it; ask the user how to proceed", isError: true };
        case "blocked":
          return { content: `Error: ${outcome.reason}`, isError: true };
        case "stopped":
          return { content: `Error: a ${outcome.event} hook stopped the subagent${outcome.reason ? `: ${outcome.reason}` : ""}`, isError: true };
      }
    } catch (error) {
      return { content: `Error: the subagent failed: ${error instanceof AgentError ? error.message : (error as Error).message}`, isError: true };
    }
  }

  /**
   * The tools its type lists (Claude Code's names or ours), or the read-only ones; never the
   * parent's own: the task tool, the todo list (a child's would replace the parent's) and the plan.
   */
  private toolsFor(type: AgentType): Tool[] {
    const all = this.options.registry.list().filter((tool) => !PARENT_ONLY_TOOLS.has(tool.name));
    if (!type.tools || type.tools.includes("*")) return type.tools ? all : all.filter((tool) => tool.isReadOnly && !tool.name.startsWith("mcp__"));
    const wanted = new Set(type.tools);
    return all.filter((tool) => wanted.has(tool.name) || wanted.has(claudeToolName(tool.name)));
  }

  /** Takes one of MAX_PARALLEL_SUBAGENTS slots, waiting for one; false when cancelled while waiting. */
  private slot(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.slotsTaken < MAX_PARALLEL_SUBAGENTS) {
      this.slotsTaken++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const take = () => {
        signal.removeEventListener("abort", giveUp);
        this.slotsTaken++;
        resolve(true);
      };
      const giveUp = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        resolve(false);
      };
      this.waiting.push(take);
      signal.addEventListener("abort", giveUp, { once: true });
    });
  }
}

/** What the parent's model reads of a subagent that did not finish because the user stopped it. */
function cancelledResult(signal: AbortSignal): ToolResult {
  // Esc on the subagents: the parent's turn goes on, and its model must not simply start it again.
  if (cancelledAlone(signal)) return { content: "Error: the user cancelled this subagent (Esc) before it finished; nothing of its work came back. Do not start it again unless the user asks.", isError: true };
  return { content: "Error: the subagent was cancelled by the user", isError: true };
}

/** A subagent's final answer, bounded: it is a report for the parent's context, not a file dump. */
function boundedAnswer(text: string): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  return `${cutText(text, MAX_ANSWER_CHARS)}\n\n[the subagent's answer was cut at ${MAX_ANSWER_CHARS.toLocaleString("en-US")} of its ${text.length.toLocaleString("en-US")} characters]`;
}

/** `sonnet`, `opus`, `haiku`: the newest of that family; `inherit` or nothing: the parent's. */
export function modelFor(wanted: string | undefined, parentModel: string): string {
  if (!wanted || wanted === "inherit") return parentModel;
  if (/^[a-z]+$/.test(wanted)) return KNOWN_MODELS.find((info) => info.id.startsWith(`claude-${wanted}-`))?.id ?? parentModel;
  return wanted;
}
