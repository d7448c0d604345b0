import type { ToolCallPreview } from "../agent/tool.ts";
import { exceedsDepth, MAX_RESULT_DEPTH } from "../system/json-depth.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { Style } from "./tool-call-line.ts";
import { visibleLine, visibleLines } from "./visible-text.ts";

/**
 * What the permission question shows above `Allow <tool>?`: the whole call, never cut. A bash
 * command comes first and whole (every line; see visibleLine for blanks and control characters), its
 * description under it as text, a file change as its path and a unified diff, anything else as its
 * arguments, pretty-printed.
 * Lines are cut to `width` so that paging counts screen rows.
 */
export function permissionView(toolName: string, preview: ToolCallPreview, width: number, style: Style): string[] {
  const name = style.bold(sanitizeForTerminal(toolName));
  const body = (text: string, paint: (line: string) => string = (line) => line) =>
    visibleLines(text, width - 2).map((line) => `  ${paint(line)}`);
  switch (preview.kind) {
    case "command": {
      // The model's own words for what the command does: text under it, never instead of it.
      const { description, ...others } = preview.rest;
      const said = typeof description === "string" && description.trim() !== "" ? described(description.trim(), width, style) : [];
      const rest = Object.keys(others).length > 0 || (description !== undefined && said.length === 0) ? [style.dim("  with"), ...body(prettyJson(said.length ? others : preview.rest), style.dim)] : [];
      return [`${name} wants to run this command:`, ...body(preview.command), ...said, ...rest];
    }
    case "file-change": {
      const note = preview.note ? ` (${preview.note})` : "";
      return [`${name} wants to change ${visibleLine(`${preview.path}${note}`)}:`, ...body(preview.diff === "" ? "(no change)" : preview.diff, (line) => paintDiffLine(line, style))];
    }
    case "arguments":
      return [`${name} wants to run with these arguments:`, ...body(prettyJson(preview.input))];
  }
}

/** The model's description of a command, under it and marked as not part of it: `⎿ Runs the tests`, dim. */
function described(text: string, width: number, style: Style): string[] {
  return visibleLines(text, width - 4).map((line, i) => style.dim(`${i === 0 ? "  ⎿ " : "    "}${line}`));
}

function paintDiffLine(line: string, style: Style): string {
  if (line.startsWith("+++") || line.startsWith("---")) return style.bold(line);
  if (line.startsWith("+")) return style.green(line);
  if (line.startsWith("-")) return style.red(line);
  if (line.startsWith("@@")) return style.cyan(line);
  return line;
}

const TOO_DEEP = "(the arguments are nested too deeply to show; answer no)";

/** Arguments as JSON, two-space indented; input nested too deep to print says so instead of crashing. */
function prettyJson(value: unknown): string {
  // Checked first: JSON.stringify would find out only after thousands of frames (seconds, at 200k levels).
  if (exceedsDepth(value, MAX_RESULT_DEPTH)) return TOO_DEEP;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return TOO_DEEP;
  }
}
