import { cutText } from "../system/cut-text.ts";
import type { SubagentActivity } from "../agent/subagents/running-subagents.ts";
import type { StatusBelowLine } from "../terminal/status-line.ts";
import { oneLine } from "../terminal/terminal-text.ts";
import type { Style } from "./tool-call-line.ts";

/** Characters of a task's description on its row; the row is cut to the terminal's width anyway. */
const MAX_DESCRIPTION_CHARS = 60;

/**
 * The running subagents as the REPL shows them, one row each under the status line:
 * `   ⎿ explorer · find the parser · Grep · 3 tool uses`, and a dim last row saying Esc cancels
 * them. Names and descriptions come from agent files and the model: sanitized here.
 */
export function subagentRows(running: readonly SubagentActivity[], style: Style): StatusBelowLine[] {
  if (running.length === 0) return [];
  const rows: StatusBelowLine[] = running.map((activity) => ({ text: `   ⎿ ${rowText(activity)}` }));
  rows.push({ text: `   esc cancels the subagent${running.length === 1 ? "" : "s"} · esc again stops the turn`, paint: style.dim });
  return rows;
}

function rowText({ name, description, state, tool, toolUses }: SubagentActivity): string {
  const what = cutText(oneLine(description), MAX_DESCRIPTION_CHARS);
  const doing = state === "waiting" ? "waiting for a free slot" : tool ? oneLine(tool) : "thinking";
  const uses = toolUses > 0 ? ` · ${toolUses} tool use${toolUses === 1 ? "" : "s"}` : "";
  return `${oneLine(name)} · ${what} · ${doing}${uses}`;
}
