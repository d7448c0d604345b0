import * as v from "valibot";
import { TASK_TOOL, type SubagentLauncher } from "../subagents/subagent-runner.ts";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { errorResult, parseToolInput } from "./tool-input.ts";

const TaskInput = v.object({
  description: v.pipe(v.string(), v.minLength(1, "give a short description (3-5 words)"), v.maxLength(200, "at most 200 characters")),
  prompt: v.pipe(v.string(), v.minLength(1, "give the task"), v.maxLength(100_000, "at most 100,000 characters")),
  subagent_type: v.optional(v.string()),
});

/**
 * Claude Code's Task: hands a self-contained job to a subagent with a fresh context, and gets back
 * its final answer only. It asks nothing itself: the subagent's own calls are asked about.
 */
export class TaskTool implements Tool {
  readonly name = TASK_TOOL;
  // Several tasks of one answer run side by side (the launcher bounds how many).
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      description: { type: "string", description: "A short (3-5 word) description of the task" },
      prompt: { type: "string", description: "The task for the agent to perform, self-contained: it sees nothing of this conversation" },
      subagent_type: { type: "string", description: "The type of agent to use (default general-purpose)" },
    },
    required: ["description", "prompt"],
  };

  constructor(private readonly launcher: SubagentLauncher) {}

  /** Read at every request: agent types are listed as they are. */
  get description(): string {
    const types = this.launcher.types().map((type) => `- ${type.name}: ${type.description}${type.tools ? ` (tools: ${type.tools.join(", ")})` : ""}`);
    return [
      "Launches a subagent to do a self-contained task on its own (research across many files, a focused investigation), with a fresh context: give it everything it needs in the prompt. Only its final report comes back, so ask for what you need in it. Launch several in one answer to run them side by side.",
      "Agent types:",
      ...types,
    ].join("\n");
  }

  async needsPermission(): Promise<boolean> {
    return false;
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, TaskInput, input);
    if (!parsed.ok) return parsed.result;
    const { description, prompt, subagent_type: name = "general-purpose" } = parsed.value;
    const type = this.launcher.types().find((candidate) => candidate.name === name);
    if (!type) return errorResult(`there is no agent type '${name}'; use one of: ${this.launcher.types().map((t) => t.name).join(", ")}`);
    return this.launcher.run({ type, description, prompt, signal: context.signal, onProgress: context.onProgress });
  }
}
