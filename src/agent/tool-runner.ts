import type { ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { AgentObserver, ToolCall } from "./agent-observer.ts";
import { imageParam } from "./message-blocks.ts";
import { declinedResult, needsPermission, previewOf, type PermissionGate } from "./permission.ts";
import type { Tool, ToolContext, ToolProgress, ToolResult } from "./tool.ts";
import type { ToolRegistry } from "./tool-registry.ts";

export interface ToolRunOptions {
  registry: ToolRegistry;
  permissions: PermissionGate;
  signal?: AbortSignal;
  observer?: AgentObserver;
}

const CANCELLED: ToolResult = { content: "Cancelled by the user before it ran.", isError: true };

/**
 * Runs the tool calls of one model answer and returns a tool_result for each, in the model's order.
 * Read-only calls that need no permission run side by side; any other call runs alone, after
 * asking, so two writes never race and the user is asked one question at a time.
 */
export async function runToolCalls(calls: ToolCall[], options: ToolRunOptions): Promise<ToolResultBlockParam[]> {
  const results: ToolResult[] = new Array(calls.length);
  let batch: number[] = [];
  const flush = async () => {
    await Promise.all(batch.map(async (i) => (results[i] = await runOne(calls[i] as ToolCall, false, options))));
    batch = [];
  };
  for (const [i, call] of calls.entries()) {
    const tool = options.registry.get(call.name);
    const ask = tool ? await needsPermission(tool, call.input) : false;
    if (tool?.isReadOnly && !ask) {
      batch.push(i);
      continue;
    }
    await flush();
    results[i] = await runOne(call, ask, options);
  }
  await flush();
  return calls.map((call, i) => toBlock(call.id, results[i] as ToolResult));
}

async function runOne(call: ToolCall, ask: boolean, options: ToolRunOptions): Promise<ToolResult> {
  const result = await decideAndRun(call, ask, options);
  options.observer?.onToolResult?.(call, result);
  return result;
}

async function decideAndRun(call: ToolCall, ask: boolean, { registry, permissions, signal, observer }: ToolRunOptions): Promise<ToolResult> {
  if (signal?.aborted) return CANCELLED;
  const tool = registry.get(call.name);
  if (!tool) return unknownTool(call.name, registry);
  if (ask) {
    const preview = await previewOf(tool, call.input, signal);
    if (signal?.aborted) return CANCELLED;
    const decision = await permissions({ tool, input: call.input, preview, signal }).catch(() => "deny" as const);
    if (signal?.aborted) return CANCELLED;
    if (decision !== "allow") return declinedResult(tool.name);
  }
  const onProgress = observer?.onToolProgress && ((progress: ToolProgress) => observer.onToolProgress?.(call, progress));
  observer?.onToolStart?.(call);
  return execute(tool, call.input, { signal, onProgress });
}

/** Tools promise never to throw; a broken one must still not take the conversation down. */
async function execute(tool: Tool, input: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
  try {
    return await tool.execute(input, context);
  } catch (error) {
    return { content: `Error: tool ${tool.name} failed: ${(error as Error)?.message ?? String(error)}`, isError: true };
  }
}

function unknownTool(name: string, registry: ToolRegistry): ToolResult {
  const names = registry.list().map((tool) => tool.name);
  const shown = names.length > 40 ? `${names.slice(0, 40).join(", ")}, …` : names.join(", ");
  return { content: `Error: there is no tool named '${name}'. Available tools: ${shown || "none"}.`, isError: true };
}

function toBlock(id: string, result: ToolResult): ToolResultBlockParam {
  // The API rejects an empty tool_result next to is_error, and an empty answer tells the model nothing.
  const text = result.content === "" ? "(no output)" : result.content;
  // Images follow the text as blocks of the same result; without any, the text stays a plain string.
  const content: ToolResultBlockParam["content"] = result.images?.length
    ? [{ type: "text", text }, ...result.images.map(imageParam)]
    : text;
  return { type: "tool_result", tool_use_id: id, content, ...(result.isError ? { is_error: true } : {}) };
}
