import type { ToolCall } from "../agent/agent-observer.ts";
import type { ToolResult } from "../agent/tool.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

const MAX_ARGS_CHARS = 160;
const MAX_INLINE_RESULT_CHARS = 100;
const MAX_RESULT_LINES = 4;
const MAX_RESULT_LINE_CHARS = 160;

export interface Style {
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
}

export const plainStyle: Style = { dim: (t) => t, red: (t) => t, green: (t) => t, cyan: (t) => t, bold: (t) => t };
export const ansiStyle: Style = {
  dim: (t) => `\u001b[2m${t}\u001b[22m`,
  red: (t) => `\u001b[31m${t}\u001b[39m`,
  green: (t) => `\u001b[32m${t}\u001b[39m`,
  cyan: (t) => `\u001b[36m${t}\u001b[39m`,
  bold: (t) => `\u001b[1m${t}\u001b[22m`,
};

/**
 * One tool call as the seed shows it: `⏺ mcp__echo__echo {"text":"你好"} → "你好"`. A short
 * one-line result stays on the line, quoted; a longer one follows, cut to a few lines, since the
 * model got the whole of it and the screen does not need to.
 */
export function formatToolCall(call: ToolCall, result: ToolResult, style: Style = plainStyle): string {
  return withResult(formatToolStart(call, style), result, style);
}

/**
 * The call alone, shown when it starts: `⏺ mcp__echo__echo {"text":"你好"}`. A bash call is its
 * command, `⏺ bash(npm test)`, as Claude Code shows it: its JSON (the description, the escaped
 * quotes) made the line wide and hard to read; the permission question shows the whole call.
 */
export function formatToolStart(call: ToolCall, style: Style = plainStyle): string {
  const command = call.name === "bash" ? (call.input as { command?: unknown }).command : undefined;
  if (typeof command === "string") return `⏺ ${style.bold("bash")}(${cut(clean(command.replace(/\s*\n\s*/g, " ⏎ ")), MAX_ARGS_CHARS)})`;
  return `⏺ ${style.bold(clean(call.name))} ${cut(clean(JSON.stringify(call.input)), MAX_ARGS_CHARS)}`;
}

/** A result shown apart from its start line (other lines came between): `  ⎿ mcp__echo__echo → "你好"`. */
export function formatToolResult(call: ToolCall, result: ToolResult, style: Style = plainStyle): string {
  return withResult(`  ⎿ ${clean(call.name)}`, result, style);
}

function withResult(head: string, result: ToolResult, style: Style): string {
  const content = result.content.replace(/\n+$/, "");
  const lines = content.split("\n");
  const paint = result.isError ? style.red : (text: string) => text;
  if (lines.length === 1 && content.length <= MAX_INLINE_RESULT_CHARS) {
    return `${head} → ${paint(clean(result.isError ? content : JSON.stringify(content)))}`;
  }
  const shown = lines.slice(0, MAX_RESULT_LINES).map((line) => `    ${paint(cut(clean(line), MAX_RESULT_LINE_CHARS))}`);
  const more = lines.length > MAX_RESULT_LINES ? [`    ${style.dim(`… +${lines.length - MAX_RESULT_LINES} lines`)}`] : [];
  return [`${head} →`, ...shown, ...more].join("\n");
}

function clean(text: string): string {
  return sanitizeForTerminal(text);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
