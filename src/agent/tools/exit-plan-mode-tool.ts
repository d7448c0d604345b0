import * as v from "valibot";
import { EXIT_PLAN_MODE } from "../permission-policy.ts";
import type { PermissionModeState } from "../permission-mode.ts";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";

/** The user's answer to a plan: accepted (and the mode to go on in), or not yet, with what to change. */
export type PlanAnswer = { accepted: true; mode: "default" | "acceptEdits" } | { accepted: false; feedback: string };

/** Shows the plan to the user and resolves the answer; null when no answer came (Esc, Ctrl-D, the turn cancelled). */
export type PlanReview = (plan: string, signal?: AbortSignal) => Promise<PlanAnswer | null>;

/** What the model is told while plan mode is on (in the system prompt, so every request carries it). */
export const PLAN_MODE_INSTRUCTIONS = `# Plan mode is on
The user wants a plan before anything changes. You may only read: read_file, glob, grep and read-only commands (ls, cat, grep, find, git status/log/diff/show…). Anything that writes, edits or runs another command is refused. Research what you need, then call ${EXIT_PLAN_MODE} with your plan (Markdown, concise, the steps and the files they touch). The user either accepts it (plan mode ends and you carry it out) or tells you what to change.`;

const DESCRIPTION = `Presents your plan to the user in plan mode and asks them to accept it. Call it once you have finished planning and are ready to make changes; the user either accepts (plan mode ends: go ahead and carry the plan out) or answers with what to change (plan mode stays on: revise the plan and call this again). Only for planning work that will change files; not for questions or research.`;

const ExitPlanModeInput = v.object({ plan: v.pipe(v.string(), v.minLength(1, "give the plan")) });

/**
 * Claude Code's ExitPlanMode, `{plan}`: the model presents its plan and the user accepts it or
 * keeps planning. Offered only while plan mode is on (AgentRuntime registers it then). It needs no
 * permission question: showing the plan and asking is what it does. Without a review (print mode:
 * nobody to answer) plan mode stays on and the model is told to end its turn with the plan.
 */
export class ExitPlanModeTool implements Tool {
  readonly name = EXIT_PLAN_MODE;
  readonly description = DESCRIPTION;
  // Not read-only: it runs alone, never side by side with another call, since it may hold the terminal.
  readonly isReadOnly = false;
  readonly inputSchema = {
    type: "object",
    properties: { plan: { type: "string", description: "The plan, in Markdown" } },
    required: ["plan"],
  };

  constructor(
    private readonly mode: PermissionModeState,
    private readonly review?: PlanReview,
  ) {}

  async needsPermission(): Promise<boolean> {
    return false;
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, ExitPlanModeInput, input);
    if (!parsed.ok) return parsed.result;
    if (this.mode.mode !== "plan") return okResult("Plan mode is not on: there is nothing to accept. Go ahead.");
    if (!this.review) return errorResult("nobody here can accept a plan (print mode): plan mode stays on. End your turn with the plan as your answer.");
    const answer = await this.review(parsed.value.plan, context.signal);
    if (answer === null) return errorResult("the user did not answer; plan mode stays on. Wait for the user's next message.");
    if (!answer.accepted) {
      const feedback = answer.feedback.trim() || "(no details given)";
      return okResult(`The user did not accept the plan yet and wants you to keep planning (plan mode stays on). Their feedback:\n${feedback}\nRevise the plan and present it again with ${EXIT_PLAN_MODE}.`);
    }
    this.mode.set(answer.mode);
    const edits = answer.mode === "acceptEdits" ? " File edits inside the project run without asking." : "";
    return okResult(`The user accepted your plan. Plan mode is off.${edits} Carry out the plan now.`);
  }
}
