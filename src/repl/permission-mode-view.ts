import { MODE_LABELS, type PermissionMode } from "../agent/permission-mode.ts";
import type { StatusBelowLine } from "../terminal/status-line.ts";
import type { Style } from "./tool-call-line.ts";

/** The prompt's text for a mode: plain `> ` by default, the mode in front of it otherwise (Shift+Tab cycles). */
export function modePrompt(mode: PermissionMode, style: Style): string {
  if (mode === "acceptEdits") return `${style.green("[accept edits]")} > `;
  if (mode === "plan") return `${style.cyan("[plan mode]")} > `;
  return "> ";
}

/** The line that says the mode changed while a turn runs (the prompt, which shows it, is not on the screen then). */
export function modeNotice(mode: PermissionMode, style: Style): string {
  return style.dim(`⎿ ${MODE_LABELS[mode]} (Shift+Tab to cycle)`);
}

/**
 * The row under the status line while a turn runs, as Claude Code shows it under its prompt
 * (`⏵⏵ accept edits on (shift+tab to cycle)`): the prompt that names the mode is off the screen then.
 * Nothing in the default mode, which needs no reminder.
 */
export function modeStatusLines(mode: PermissionMode, style: Style): StatusBelowLine[] {
  if (mode === "acceptEdits") return [{ text: "⏵⏵ accept edits on (shift+tab to cycle)", paint: style.green }];
  if (mode === "plan") return [{ text: "⏸ plan mode on (shift+tab to cycle)", paint: style.cyan }];
  return [];
}
