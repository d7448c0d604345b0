import type { Tool, ToolCallPreview, ToolResult } from "./tool.ts";

/**
 * "deny" declines the call and the model goes on (a rule, print mode); "stop" is the user's own no:
 * the call is declined and the turn ends, so the REPL can ask what to do instead.
 */
export type PermissionDecision = "allow" | "deny" | "stop";

export interface PermissionRequest {
  tool: Tool;
  input: Record<string, unknown>;
  /** What to show: the whole call, as the tool describes it (see Tool.preview); absent: the input. */
  preview?: ToolCallPreview;
  /** Aborted when the turn is cancelled while the question is open. */
  signal?: AbortSignal;
  /** The subagent (its type's name) whose call this is; absent for the main agent's. */
  requester?: string;
}

/**
 * Asked before a call that needs permission runs (see Tool.needsPermission). The REPL asks the
 * user; `--allow-all` allows; print mode without it declines, since nobody is there to answer.
 */
export type PermissionGate = ((request: PermissionRequest) => Promise<PermissionDecision>) & {
  /**
   * The deny rule (its text) that refuses this call, checked for every call, also those that need no
   * permission (a `Read(.env)` rule holds for a read inside the project). See withRules.
   */
  deniedBy?: (toolName: string, input: Record<string, unknown>) => string | undefined;
  /**
   * Why this call may not run at all, as the model reads it (a deny rule, plan mode), checked for
   * every call before anything else; where absent, deniedBy is. See permission-policy.ts.
   */
  refusal?: (tool: Tool, input: Record<string, unknown>) => Promise<ToolResult | undefined>;
  /**
   * The allow rules (their text) that cover this call. A tool that must refuse more than the user
   * can approve with one "yes" reads it (web_fetch reaches a private address only for a host a
   * rule names), through ToolContext.allowedBy.
   */
  allowedBy?: (toolName: string, input: Record<string, unknown>) => string[];
};

/** The refusal of a call by the gate: its own, or its deny rule's. */
export async function refusalOf(gate: PermissionGate, tool: Tool, input: Record<string, unknown>): Promise<ToolResult | undefined> {
  if (gate.refusal) return gate.refusal(tool, input);
  const rule = gate.deniedBy?.(tool.name, input);
  return rule === undefined ? undefined : deniedByRuleResult(tool.name, rule);
}

export const allowAll: PermissionGate = async () => "allow";
export const declineAll: PermissionGate = async () => "deny";

/** Whether a call must be approved; a tool that cannot say (or fails to) is asked about. */
export async function needsPermission(tool: Tool, input: Record<string, unknown>): Promise<boolean> {
  if (!tool.needsPermission) return true;
  return tool.needsPermission(input).catch(() => true);
}

/** The call as the user should see it; a preview that fails falls back to the raw arguments. */
export async function previewOf(tool: Tool, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolCallPreview> {
  const fallback: ToolCallPreview = { kind: "arguments", input };
  if (!tool.preview) return fallback;
  return tool.preview(input, { signal }).catch(() => fallback);
}

/** What the model gets when a deny rule refuses a call. */
export function deniedByRuleResult(toolName: string, rule: string): ToolResult {
  return {
    content: `Permission to use ${toolName} was denied by the rule ${rule} in the user's settings. Do not try to reach the same result another way; tell the user if you cannot go on without it.`,
    isError: true,
  };
}

/** What the model gets when the user says no and stops the turn: the user's next message says what to do instead. */
export function stoppedResult(toolName: string): ToolResult {
  return {
    content: `The user declined to run ${toolName} and stopped the turn: it was NOT run. Do not try it again; the user's next message says what to do instead.`,
    isError: true,
  };
}

/** What the model gets for a call after the one the user stopped at: never run. */
export const NOT_RUN_AFTER_STOP: ToolResult = { content: "Not run: the user stopped the turn at an earlier tool call.", isError: true };

/** What the model gets when the user says no: an error it should not retry around. */
export function declinedResult(toolName: string): ToolResult {
  return {
    content: `The user declined to run ${toolName}. Do not try it again this way; ask the user how to proceed.`,
    isError: true,
  };
}
