import { sep } from "node:path";
import { deniedByRuleResult, needsPermission, type PermissionGate } from "./permission.ts";
import type { PermissionMode } from "./permission-mode.ts";
import { splitCommand } from "../system/bash-command-parts.ts";
import { allowingRules, askingRule, denyingRule, parseRule, partAllowedByRules, ruleDecision, type PermissionRules } from "./permission-rules.ts";
import { readOnlyCommand, readOnlyPart, type ReadGuard } from "./read-only-commands.ts";
import { TODO_WRITE } from "./todo-list.ts";
import type { Tool, ToolResult } from "./tool.ts";
import { projectRelativePath } from "./tools/project-scope.ts";

/** The tool the model presents its plan with in plan mode (Claude Code's ExitPlanMode). */
export const EXIT_PLAN_MODE = "exit_plan_mode";

/** What a decision reads, each at every call: rules and mode may change while the session runs. */
export interface PermissionContext {
  rules: () => PermissionRules;
  mode: () => PermissionMode;
  /** The project: read-only commands and accepted edits stay inside it. */
  cwd: string;
}

/**
 * What happens to one call: it runs (and why, for a log line or a hook), it is refused with the
 * result the model reads, or the user must be asked.
 */
export type PermissionVerdict =
  | { decision: "allow"; why: "no permission needed" | "allow rule" | "read-only command" | "accept edits" }
  | { decision: "refuse"; result: ToolResult }
  | { decision: "ask" };

/**
 * The one place a call's permission is decided, before anyone is asked. In order: a deny rule
 * refuses; plan mode refuses what is not read-only; a call the tool vouches for runs (a read inside
 * the project); an ask rule asks, whatever else would allow it; an allow rule allows; a read-only
 * command line runs (read-only-commands.ts) unless it reads a path a Read deny or ask rule guards;
 * in acceptEdits mode a file edit inside the project
 * runs (not in .git, .cat-code, .claude: they change what runs or what is allowed); anything else asks.
 */
export async function decidePermission(context: PermissionContext, tool: Tool, input: Record<string, unknown>): Promise<PermissionVerdict> {
  const refused = await refusal(context, tool, input);
  if (refused) return { decision: "refuse", result: refused };
  if (!(await needsPermission(tool, input))) return { decision: "allow", why: "no permission needed" };
  const rules = context.rules();
  if (askingRule(rules, tool.name, input, context.cwd) !== undefined) return { decision: "ask" };
  if (ruleDecision(rules, tool.name, input, context.cwd) === "allow") return { decision: "allow", why: "allow rule" };
  if (tool.name === "bash" && typeof input.command === "string") {
    const covered = await commandCovered(rules, input.command, context.cwd);
    if (covered) return { decision: "allow", why: covered };
  }
  if (context.mode() === "acceptEdits" && (await isProjectEdit(tool.name, input, context.cwd))) return { decision: "allow", why: "accept edits" };
  return { decision: "ask" };
}

/**
 * The gate the front ends use: decidePermission first, and `ask` (the user's question, or print
 * mode's answer) only for a call it leaves open. Refusals reach the model through `refusal`, which
 * the tool runner checks for every call, also those that would not be asked about.
 */
export function withPolicy(context: PermissionContext, ask: PermissionGate): PermissionGate {
  const gate: PermissionGate = async (request) => {
    const verdict = await decidePermission(context, request.tool, request.input);
    if (verdict.decision === "allow") return "allow";
    if (verdict.decision === "refuse") return "deny";
    return ask(request);
  };
  gate.refusal = (tool, input) => refusal(context, tool, input);
  gate.deniedBy = (toolName, input) => denyingRule(context.rules(), toolName, input, context.cwd);
  gate.allowedBy = (toolName, input) => allowingRules(context.rules(), toolName, input, context.cwd);
  return gate;
}

/**
 * Whether every part of a command line may run: each read-only, or allowed by a rule (`ls && npm
 * test` with `Bash(npm test:*)`: "always" for a compound command saves a rule per part that is not
 * read-only, and this is where those rules cover the whole line again).
 */
async function commandCovered(rules: PermissionRules, command: string, cwd: string): Promise<"read-only command" | "allow rule" | undefined> {
  const guard = readGuard(rules, cwd);
  if ((await readOnlyCommand(command, cwd, guard)).readOnly) return "read-only command";
  const split = splitCommand(command);
  if (!split.ok || split.parts.length === 0) return undefined;
  for (const part of split.parts) if (!partAllowedByRules(rules, part) && !(await readOnlyPart(part, cwd, guard))) return undefined;
  return "allow rule";
}

/** The deny and ask rules about reading files (`Read(.env)`, `Read`), as they hold for a read-only command's paths. */
function readGuard(rules: PermissionRules, cwd: string): ReadGuard {
  const guards = (path: string) => denyingRule(rules, "read_file", { path }, cwd) !== undefined || askingRule(rules, "read_file", { path }, cwd) !== undefined;
  const any = [...rules.deny, ...(rules.ask ?? [])].some((text) => {
    const parsed = parseRule(text);
    return parsed.ok && (parsed.rule.kind === "path" || parsed.rule.kind === "tool") && parsed.rule.tools.includes("read_file");
  });
  return { guards, any };
}

/** Why a call may not run at all, as the model reads it: a deny rule, or plan mode. */
async function refusal(context: PermissionContext, tool: Tool, input: Record<string, unknown>): Promise<ToolResult | undefined> {
  const rule = denyingRule(context.rules(), tool.name, input, context.cwd);
  if (rule !== undefined) return deniedByRuleResult(tool.name, rule);
  if (context.mode() === "plan" && !(await readsOnly(tool, input, context.cwd))) return planModeResult(tool.name);
  return undefined;
}

/**
 * In plan mode: cat-code's own tools that change nothing (asked as usual where they ask), read-only
 * command lines, the plan itself and the todo list (the model's own notes, as in Claude Code). A
 * server's tool never: its readOnlyHint is the server's word, and plan mode promises nothing writes.
 */
async function readsOnly(tool: Tool, input: Record<string, unknown>, cwd: string): Promise<boolean> {
  if (tool.name === EXIT_PLAN_MODE || tool.name === TODO_WRITE) return true;
  if (tool.isReadOnly && tool.origin === undefined && !tool.name.startsWith("mcp__")) return true;
  if (tool.name !== "bash" || typeof input.command !== "string") return false;
  const verdict = await readOnlyCommand(input.command, cwd);
  // A read outside the project is still a read: asked about, not refused.
  return verdict.readOnly || verdict.outside === true;
}

/** What the model gets for a call plan mode refuses. */
export function planModeResult(toolName: string): ToolResult {
  return {
    content: `Plan mode is on: ${toolName} was NOT run. In plan mode you may only read (read_file, glob, grep, read-only commands such as ls, cat, git log) and keep your todo list; MCP servers' tools are not run. Finish researching, then present your plan with ${EXIT_PLAN_MODE}; the user accepts it (plan mode ends) or tells you what to change.`,
    isError: true,
  };
}

const EDIT_TOOLS = new Set(["edit_file", "write_file"]);
/** Folders whose files change what runs or what is allowed: never edited unasked. */
const GUARDED_FOLDERS = new Set([".git", ".cat-code", ".claude"]);

async function isProjectEdit(toolName: string, input: Record<string, unknown>, cwd: string): Promise<boolean> {
  if (!EDIT_TOOLS.has(toolName) || typeof input.path !== "string" || input.path === "") return false;
  // Where it really lands: a symlink named `docs` pointing at .git is .git.
  const where = await projectRelativePath(cwd, input.path);
  if (where === undefined) return false;
  const first = where.split(sep)[0] ?? "";
  return !GUARDED_FOLDERS.has(first) && first !== ".mcp.json";
}
