import type { AgentType } from "../agent/subagents/agent-types.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { alignColumnsWrapped } from "../terminal/wrapped-columns.ts";

/** `/agents`: each subagent type the task tool can start: name, where it comes from, model and tools, what it is for. */
export function agentsText(types: readonly AgentType[], columns: number | undefined): string {
  const rows = types.map((type) => [
    sanitizeForTerminal(type.name),
    sanitizeForTerminal(type.file ?? "built-in"),
    sanitizeForTerminal(`model: ${type.model ?? "inherit"} · tools: ${type.tools?.join(", ") ?? "read-only"}`),
    sanitizeForTerminal(type.description),
  ]);
  const lines = alignColumnsWrapped(rows.map(([name = "", from = "", how = "", what = ""]) => [name, `${what} (${how}; ${from})`]), columns);
  return ["Subagent types (the model starts them with the task tool):", ...lines.map((line) => `  ${line}`), "Add your own: .cat-code/agents/<name>.md or .claude/agents/<name>.md, in Claude Code's format."].join("\n");
}
