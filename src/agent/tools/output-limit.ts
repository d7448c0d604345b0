/** About 25,000 tokens: what one tool result, built-in or MCP, may put before the model. */
export const TOOL_OUTPUT_LIMIT = 100_000;

/** Cuts text meant for the model, saying what was cut so the model does not take it for the whole. */
export function limitOutput(text: string, limit = TOOL_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  const cut = text.length - limit;
  return `${text.slice(0, limit)}\n\n[output cut: ${cut.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters not shown]`;
}
