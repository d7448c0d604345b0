import * as v from "valibot";
import { ToolDefinition } from "../protocol.ts";
import { exceedsDepth, MAX_TOOL_DEPTH } from "../../system/json-depth.ts";

/** The largest tool definition we keep: every one goes to the model with every request. */
export const MAX_TOOL_DEFINITION_CHARS = 1_000_000;

/** A tool the server listed that is left out, and why, in words a user can act on. */
export interface RejectedTool {
  /** The tool's name as the server gave it (cut to 100 characters), or its place in the list. */
  name: string;
  reason: string;
}

/**
 * Sorts the tools of one tools/list page into those we can use and those we leave out. One bad
 * tool must not cost the others: each is checked on its own, depth first (nothing after this point
 * may meet a definition deep enough to overflow the stack: valibot, `JSON.stringify` for the model
 * request, `mcp tools --schema`), then size, then shape. The input schema must be an object schema,
 * as the Messages API requires of every tool.
 */
export function checkToolDefinitions(raws: unknown[], offset = 0): { tools: ToolDefinition[]; rejected: RejectedTool[] } {
  const tools: ToolDefinition[] = [];
  const rejected: RejectedTool[] = [];
  raws.forEach((raw, index) => {
    const checked = checkToolDefinition(raw);
    if (typeof checked === "string") rejected.push({ name: nameOf(raw, offset + index), reason: checked });
    else tools.push(checked);
  });
  return { tools, rejected };
}

/** The definition, or the reason it is left out. */
function checkToolDefinition(raw: unknown): ToolDefinition | string {
  if (exceedsDepth(raw, MAX_TOOL_DEPTH)) return `its definition is nested deeper than ${MAX_TOOL_DEPTH} levels`;
  const size = JSON.stringify(raw)?.length ?? 0;
  if (size > MAX_TOOL_DEFINITION_CHARS) {
    return `its definition is ${(size / 1e6).toFixed(1)} MB, more than the ${MAX_TOOL_DEFINITION_CHARS / 1e6} MB allowed`;
  }
  const parsed = v.safeParse(ToolDefinition, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue ? v.getDotPath(issue) : null;
    return `its definition is invalid${path ? ` at "${path}"` : ""}: ${issue?.message ?? "unknown problem"}`;
  }
  if (parsed.output.inputSchema.type !== "object") return 'its inputSchema has no "type": "object" at the root, which the model API requires';
  return parsed.output;
}

function nameOf(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" && name !== "" ? name.slice(0, 100) : `#${index + 1} (no name)`;
}
