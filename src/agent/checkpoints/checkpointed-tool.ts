import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { resolveInWorkspace } from "../tools/workspace-path.ts";
import type { FileCheckpoints } from "./file-checkpoints.ts";

/** The tools whose changes a rewind can undo: they name the file they change in `path`. */
export const CHECKPOINTED_TOOLS = new Set(["write_file", "edit_file"]);

/** `tool`, keeping the file it is about to change in `checkpoints` first. Everything else is the tool's own. */
export function checkpointed(tool: Tool, cwd: string, checkpoints: FileCheckpoints): Tool {
  if (!CHECKPOINTED_TOOLS.has(tool.name)) return tool;
  const wrapped = Object.create(tool) as Tool;
  return Object.assign(wrapped, {
    execute(input: Record<string, unknown>, context?: ToolContext): Promise<ToolResult> {
      if (typeof input.path === "string" && input.path !== "") checkpoints.beforeWrite(resolveInWorkspace(cwd, input.path));
      return tool.execute(input, context);
    },
  });
}
