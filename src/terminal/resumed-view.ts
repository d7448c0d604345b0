import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { alignColumns, cutToColumns, oneLine } from "./terminal-text.ts";

export interface ConversationRow {
  id: string;
  modified: Date;
  firstPrompt: string;
  messageCount: number;
}

/** How many of the last exchanges a resumed conversation shows. */
export const SHOWN_EXCHANGES = 3;

/**
 * A resumed conversation, compactly: a line saying which session, then the last few exchanges,
 * one line each (what was asked, what the model last said, how many tools it ran). The text is the
 * model's and the user's: sanitized, and cut to the terminal's width.
 */
export function resumedLines(options: { id: string; messages: readonly MessageParam[]; columns?: number; exchanges?: number }): string[] {
  const columns = Math.max(20, options.columns ?? 80);
  const exchanges = collectExchanges(options.messages).slice(-(options.exchanges ?? SHOWN_EXCHANGES));
  const lines = [`Resumed session ${options.id} (${options.messages.length} messages)`];
  for (const exchange of exchanges) {
    lines.push(cutToColumns(`> ${startLine(exchange.prompt)}`, columns));
    const tools = exchange.tools ? ` (${exchange.tools} tool call${exchange.tools === 1 ? "" : "s"})` : "";
    if (exchange.answer || tools) lines.push(cutToColumns(`⏺ ${startLine(exchange.answer)}${tools}`, columns));
  }
  return lines;
}

/** The rows of the --resume list: number, date, size, first prompt. */
export function conversationRows(conversations: readonly ConversationRow[], columns = 80): string[] {
  const rows = conversations.map((conversation, index) => [
    `${index + 1}`,
    localTime(conversation.modified),
    `${conversation.messageCount} msg`,
    startLine(conversation.firstPrompt) || "(no prompt)",
  ]);
  return alignColumns(rows).map((line) => cutToColumns(`  ${line}`, Math.max(20, columns)));
}

interface Exchange {
  prompt: string;
  answer: string;
  tools: number;
}

function collectExchanges(messages: readonly MessageParam[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const message of messages) {
    const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    const texts = blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));
    if (message.role === "user") {
      if (texts.length) exchanges.push({ prompt: texts.join(" "), answer: "", tools: 0 });
      continue;
    }
    const current = exchanges.at(-1);
    if (!current) continue;
    if (texts.join("").trim()) current.answer = texts.join(" ");
    current.tools += blocks.filter((block) => block.type === "tool_use").length;
  }
  return exchanges;
}

/** A message's start as one line: a long one is cut before it is cleaned (the line shows its start only). */
function startLine(text: string): string {
  return oneLine(text.slice(0, 2000));
}

function localTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
