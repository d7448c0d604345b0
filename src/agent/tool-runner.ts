import type { ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { AgentObserver, ToolCall } from "./agent-observer.ts";
import type { AgentHooks, HookHalt } from "./hooks/agent-hooks.ts";
import { documentParam, imageParam } from "./message-blocks.ts";
import { declinedResult, needsPermission, NOT_RUN_AFTER_STOP, previewOf, refusalOf, stoppedResult, type PermissionDecision, type PermissionGate } from "./permission.ts";
import type { Tool, ToolContext, ToolProgress, ToolResult } from "./tool.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import type { ToolLookup } from "./request-tools.ts";
import type { OutputLimit } from "./tools/output-limit.ts";

export interface ToolRunOptions {
  registry: ToolRegistry;
  /** Where calls find their tool, when not only the registry (the tool search and its note on missing tools). */
  lookup?: ToolLookup;
  permissions: PermissionGate;
  signal?: AbortSignal;
  observer?: AgentObserver;
  /** Cuts a result past its limit to head and tail, saving the whole (tools/output-limit.ts). */
  outputLimit?: OutputLimit;
  /** Claude Code's hooks: PreToolUse decides around the permission question, PostToolUse hears the result. */
  hooks?: AgentHooks;
}

const CANCELLED: ToolResult = { content: "Cancelled by the user before it ran.", isError: true };

export interface ToolRunResults {
  /** One tool_result per call, in the model's order. */
  results: ToolResultBlockParam[];
  /** The user said no and stopped the turn (a "stop" decision): the calls after it were not run. */
  declined: boolean;
  /** A hook answered `continue: false`: the run stops after these results; the calls after it were not run. */
  halted?: HookHalt;
}

const NOT_RUN_AFTER_HOOK_STOP: ToolResult = { content: "Not run: a hook stopped the turn at an earlier tool call.", isError: true };

/**
 * Runs the tool calls of one model answer and returns a tool_result for each, in the model's order.
 * Read-only calls that need no permission run side by side; any other call runs alone, after
 * asking, so two writes never race and the user is asked one question at a time. A "stop" answer
 * declines that call and every later one of the answer.
 */
export async function runToolCalls(calls: ToolCall[], options: ToolRunOptions): Promise<ToolRunResults> {
  const results: ToolResult[] = new Array(calls.length);
  let batch: number[] = [];
  let declined = false;
  let halted: HookHalt | undefined;
  const flush = async () => {
    await Promise.all(
      batch.map(async (i) => {
        const outcome = await runOne(calls[i] as ToolCall, false, options);
        results[i] = outcome.result;
        halted ??= outcome.halt;
      }),
    );
    batch = [];
  };
  for (const [i, call] of calls.entries()) {
    if (declined || halted) {
      const notRun = halted ? NOT_RUN_AFTER_HOOK_STOP : NOT_RUN_AFTER_STOP;
      results[i] = notRun;
      options.observer?.onToolResult?.(call, notRun);
      continue;
    }
    const tool = (options.lookup ?? options.registry).get(call.name);
    const ask = tool ? await needsPermission(tool, call.input) : false;
    if (tool?.isReadOnly && !ask) {
      batch.push(i);
      continue;
    }
    await flush();
    const outcome = await runOne(call, ask, options);
    results[i] = outcome.result;
    declined = outcome.decision === "stop";
    halted ??= outcome.halt;
  }
  await flush();
  return { results: calls.map((call, i) => toBlock(call.id, results[i] as ToolResult)), declined, ...(halted ? { halted } : {}) };
}

/**
 * One call alone, decided and run as runToolCalls runs it: PreToolUse hooks, the permission policy
 * and gate, PostToolUse hooks. For a front end that gets calls one by one (`mcp serve --builtin`).
 */
export async function runToolCall(call: ToolCall, options: ToolRunOptions): Promise<ToolResult> {
  const tool = (options.lookup ?? options.registry).get(call.name);
  const ask = tool ? await needsPermission(tool, call.input) : false;
  return (await runOne(call, ask, options)).result;
}

interface CallOutcome {
  result: ToolResult;
  decision?: PermissionDecision;
  halt?: HookHalt;
}

async function runOne(call: ToolCall, ask: boolean, options: ToolRunOptions): Promise<CallOutcome> {
  const outcome = await decideAndRun(call, ask, options);
  options.observer?.onToolResult?.(call, outcome.result);
  return outcome;
}

async function decideAndRun(call: ToolCall, ask: boolean, { registry, lookup, permissions, signal, observer, outputLimit, hooks }: ToolRunOptions): Promise<CallOutcome> {
  if (signal?.aborted) return { result: CANCELLED };
  const tool = (lookup ?? registry).get(call.name);
  if (!tool) {
    const missing = lookup?.missing?.(call.name);
    return { result: missing ? { content: missing, isError: true } : unknownTool(call.name, registry) };
  }
  // A PreToolUse hook may deny (the model reads why), rewrite the input, or decide whether to ask.
  const hook = hooks ? await hooks.preToolUse(tool.name, call.input, signal) : {};
  if (signal?.aborted) return { result: CANCELLED };
  if (hook.stop !== undefined) return { result: { content: `Not run: a PreToolUse hook stopped the turn before ${tool.name} ran.`, isError: true }, halt: { event: "PreToolUse", reason: hook.stop } };
  if (hook.decision === "deny") return { result: hookDeniedResult(tool.name, hook.reason), decision: "deny" };
  const input = hook.input ?? call.input;
  // A deny rule (and plan mode) holds for every call, also one that would not be asked about (or
  // that a hook allowed). A check that fails refuses: never a reason to run a call unchecked.
  const refused = await refusalOf(permissions, tool, input).catch((error: unknown) => ({ content: `Error: the permission check for ${tool.name} failed: ${(error as Error)?.message ?? String(error)}`, isError: true }));
  if (refused) return { result: refused, decision: "deny" };
  // Rewritten input is asked about as what it now is (a path moved outside the project asks).
  const asks = hook.input ? await needsPermission(tool, input) : ask;
  if (hook.decision === "ask" || (asks && hook.decision !== "allow")) {
    const preview = await previewOf(tool, input, signal);
    if (signal?.aborted) return { result: CANCELLED };
    const decision = await permissions({ tool, input, preview, signal }).catch(() => "deny" as const);
    if (signal?.aborted) return { result: CANCELLED };
    if (decision === "stop") return { result: stoppedResult(tool.name), decision };
    if (decision !== "allow") return { result: declinedResult(tool.name), decision };
  }
  const onProgress = observer?.onToolProgress && ((progress: ToolProgress) => observer.onToolProgress?.(call, progress));
  observer?.onToolStart?.(call);
  const allowedBy = permissions.allowedBy?.(tool.name, input);
  const executed = await execute(tool, input, { signal, onProgress, allowedBy });
  const { feedback, stop } = hooks && !signal?.aborted ? await hooks.postToolUse(tool.name, input, executed, signal) : {};
  const result = feedback ? { ...executed, content: `${executed.content}\n\n[PostToolUse hook] ${feedback}` } : executed;
  const halt: HookHalt | undefined = stop === undefined ? undefined : { event: "PostToolUse", reason: stop };
  if (!outputLimit) return { result, halt };
  const limited = outputLimit.apply(call.id, tool.name, result);
  if (limited.cut) observer?.onToolOutputCut?.(call, limited.cut);
  return { result: limited.result, halt };
}

/** Tools promise never to throw; a broken one must still not take the conversation down. */
async function execute(tool: Tool, input: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
  try {
    return await tool.execute(input, context);
  } catch (error) {
    return { content: `Error: tool ${tool.name} failed: ${(error as Error)?.message ?? String(error)}`, isError: true };
  }
}

/** What the model gets when a PreToolUse hook denies a call: the hook's reason, which is meant for it. */
function hookDeniedResult(toolName: string, reason: string | undefined): ToolResult {
  return { content: `A PreToolUse hook denied ${toolName}${reason ? `: ${reason}` : " (it gave no reason)"}`, isError: true };
}

function unknownTool(name: string, registry: ToolRegistry): ToolResult {
  const names = registry.list().map((tool) => tool.name);
  const shown = names.length > 40 ? `${names.slice(0, 40).join(", ")}, …` : names.join(", ");
  return { content: `Error: there is no tool named '${name}'. Available tools: ${shown || "none"}.`, isError: true };
}

function toBlock(id: string, result: ToolResult): ToolResultBlockParam {
  // The API rejects an empty tool_result next to is_error, and an empty answer tells the model nothing.
  const text = result.content === "" ? "(no output)" : result.content;
  // Images and documents follow the text as blocks of the same result; without any, the text stays a plain string.
  const content: ToolResultBlockParam["content"] = result.images?.length || result.documents?.length
    ? [{ type: "text", text }, ...(result.images ?? []).map(imageParam), ...(result.documents ?? []).map(documentParam)]
    : text;
  return { type: "tool_result", tool_use_id: id, content, ...(result.isError ? { is_error: true } : {}) };
}
