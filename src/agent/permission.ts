import type { Tool, ToolResult } from "./tool.ts";

export type PermissionDecision = "allow" | "deny";

export interface PermissionRequest {
  tool: Tool;
  input: Record<string, unknown>;
  /** Aborted when the turn is cancelled while the question is open. */
  signal?: AbortSignal;
}

/**
 * Asked before a tool that is not read-only runs. The REPL asks the user; `--allow-all` allows;
 * print mode without it declines, since nobody is there to answer.
 */
export type PermissionGate = (request: PermissionRequest) => Promise<PermissionDecision>;

export const allowAll: PermissionGate = async () => "allow";
export const declineAll: PermissionGate = async () => "deny";

/** What the model gets when the user says no: an error it should not retry around. */
export function declinedResult(toolName: string): ToolResult {
  return {
    content: `The user declined to run ${toolName}. Do not try it again this way; ask the user how to proceed.`,
    isError: true,
  };
}
