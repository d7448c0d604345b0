import { cutText } from "../system/cut-text.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { ElicitResult } from "../mcp/index.ts";
import type { Style } from "./tool-call-line.ts";

/** A server's message is shown up to this many lines. */
const MAX_MESSAGE_LINES = 20;
/** A label, a default or an answer is shown cut to this many characters; the whole of it is sent. */
const MAX_SHOWN_CHARS = 300;

/** What a question of an elicitation sees: the answer or, when none came, whether the user cancelled. */
export interface PromptIo {
  /** Resolves the answer; null when input ended (Ctrl-D) or the question was cancelled. */
  ask(question: string): Promise<string | null>;
  /** True once Esc or Ctrl-C was pressed, or the call was given up: no answer then means cancel. */
  cancelled(): boolean;
  print(line: string): void;
  style: Style;
}

/** Server text for one line of the form: sanitized and cut. */
export function clean(text: string): string {
  return cutText(sanitizeForTerminal(text), MAX_SHOWN_CHARS);
}

/** The server's message after `heading`, every line sanitized, the lines after the first indented. */
export function messageLines(heading: string, message: string): string[] {
  const lines = sanitizeForTerminal(message, { keepNewlines: true }).replaceAll("\t", " ").split("\n");
  const shown = lines.slice(0, MAX_MESSAGE_LINES);
  if (lines.length > MAX_MESSAGE_LINES) shown.push(`… (${lines.length - MAX_MESSAGE_LINES} more lines)`);
  return shown.map((line, i) => (i === 0 ? `${heading}${line}` : `  ${line}`));
}

/** No answer: Esc, Ctrl-C or a given-up call cancel; Ctrl-D (the end of input) declines. */
export function noAnswer(io: PromptIo): ElicitResult {
  // The line reader ends the question's line (Ctrl-D there answers nothing): no blank line here.
  return io.cancelled() ? { action: "cancel" } : { action: "decline" };
}
