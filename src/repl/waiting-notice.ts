import { claudeToolName } from "../agent/hooks/hook-config.ts";
import type { PermissionRequest } from "../agent/permission.ts";
import type { ElicitationRequest } from "../mcp/index.ts";

/**
 * What the user is asked, as a Notification hook hears it: Claude Code's `message` and
 * `notification_type` (`permission_prompt`, `elicitation_dialog`), so a desktop notifier script says
 * what waits (which tool, which server) and its matcher can tell a permission from a server's form
 * or an idle prompt.
 */
export interface WaitingNotice {
  message: string;
  type: "permission_prompt" | "elicitation_dialog" | "idle_prompt";
}

/** `cat-code needs your permission to use Bash` (`… (subagent explorer)` for a subagent's call). */
export function permissionNotice(request: Pick<PermissionRequest, "tool" | "requester">): WaitingNotice {
  const whose = request.requester ? ` (subagent ${request.requester})` : "";
  return { message: `cat-code needs your permission to use ${claudeToolName(request.tool.name)}${whose}`, type: "permission_prompt" };
}

/** `MCP server github asks for your input: <its message>`; the server's words are bounded by the client already. */
export function elicitationNotice(request: ElicitationRequest): WaitingNotice {
  const what = request.mode === "url" ? "asks you to open a link" : "asks for your input";
  return { message: `MCP server ${request.server} ${what}: ${request.message}`, type: "elicitation_dialog" };
}

/** exit_plan_mode: the user approves the plan before the agent goes on. */
export const PLAN_NOTICE: WaitingNotice = { message: "cat-code needs your approval of its plan", type: "permission_prompt" };

/** Claude Code's idle notification: an answer came, and the prompt has waited this long since. */
export const IDLE_PROMPT_MS = 60_000;
export const IDLE_NOTICE: WaitingNotice = { message: "cat-code is waiting for your input", type: "idle_prompt" };
