import { basename } from "node:path";
import type { MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { formatBytes } from "../../system/format-bytes.ts";
import type { TokenUsage } from "../usage.ts";
import { boundedLines, type LineLimits } from "./bounded-lines.ts";
import { decodeLine } from "./conversation-log-line.ts";

/** A conversation grows a line per change; these hold a long afternoon with room, and stop a runaway file. */
export const DEFAULT_CONVERSATION_LOG_LIMITS: LineLimits = { maxLineBytes: 32 * 1024 * 1024, maxFileBytes: 256 * 1024 * 1024 };

export interface LoggedConversation {
  messages: MessageParam[];
  usage: Array<{ model: string; usage: TokenUsage }>;
  /**
   * The tools to load again: those the tool search had loaded, then those the messages call (a
   * request whose history calls a tool carries its definition), each once.
   */
  loadedTools: string[];
  /** The model of the last request, else the one the session started with. */
  model?: string;
  /** One line each: the file was cut, corrupt, or too large; what was read is still good. */
  warnings: string[];
  id?: string;
  cwd?: string;
  created?: string;
  /** The first prompt typed in the session, even when compaction has replaced it since. */
  firstPrompt?: string;
  /** False when the file was read only up to a bad line: appending to it would hide the new lines. */
  clean: boolean;
  /** True when the messages were changed to be sendable (a tool call the session ended in was answered). */
  repaired: boolean;
}

/**
 * Replays a session file. It stops at the first line that is not a whole, valid line (a write cut
 * short by a crash, a corrupt byte) and keeps what came before, with a warning that names the file
 * and the line: resuming a conversation up to a point is worth more than refusing it.
 */
export function readConversationLog(path: string, limits: LineLimits = DEFAULT_CONVERSATION_LOG_LIMITS): LoggedConversation {
  const read: LoggedConversation = { messages: [], usage: [], loadedTools: [], warnings: [], clean: true, repaired: false };
  const name = basename(path);
  let lastGood = 0;
  try {
    for (const event of boundedLines(path, limits)) {
      if (event.kind === "too-large") {
        read.warnings.push(`session ${name} is ${formatBytes(event.bytes)}, over the ${formatBytes(limits.maxFileBytes)} a session may have: not read`);
        read.clean = false;
        return read;
      }
      if (event.kind === "too-long") {
        stop(read, `line ${event.number} is over ${formatBytes(limits.maxLineBytes)}`, name, lastGood);
        break;
      }
      if (event.text.trim() === "") continue;
      const line = decodeLine(event.text);
      if (!line) {
        stop(read, event.complete ? `line ${event.number} is not a valid session line` : `its last line is cut short`, name, lastGood);
        break;
      }
      lastGood = event.number;
      switch (line.type) {
        case "session":
          Object.assign(read, { id: line.id, cwd: line.cwd, created: line.created, model: read.model ?? line.model });
          break;
        case "push":
          read.firstPrompt ??= promptText(line.message as MessageParam);
          read.messages.push(line.message as MessageParam);
          break;
        case "update-last":
          read.firstPrompt ??= promptText(line.message as MessageParam);
          if (read.messages.length) read.messages[read.messages.length - 1] = line.message as MessageParam;
          else read.messages.push(line.message as MessageParam);
          break;
        case "reset":
          read.messages = line.messages as MessageParam[];
          break;
        case "usage":
          read.usage.push({ model: line.model, usage: line.usage });
          read.model = line.model;
          break;
        case "tools-loaded":
          read.loadedTools = line.names;
          break;
      }
    }
  } catch (error) {
    read.warnings.push(`session ${name} could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    read.clean = false;
    return read;
  }
  read.loadedTools = [...new Set([...read.loadedTools, ...calledTools(read.messages)])];
  const answered = answerDanglingToolUses(read.messages);
  read.repaired = answered !== read.messages;
  read.messages = answered;
  return read;
}

function stop(read: LoggedConversation, what: string, name: string, lastGood: number): void {
  read.clean = false;
  read.warnings.push(`session ${name}: ${what}; resumed up to ${lastGood ? `line ${lastGood}` : "its start"}`);
}

/** The text a user typed, when the message is a prompt (not tool results). */
export function promptText(message: MessageParam): string | undefined {
  if (message.role !== "user") return undefined;
  if (typeof message.content === "string") return message.content;
  const block = message.content.find((b) => b.type === "text");
  return block && block.type === "text" ? block.text : undefined;
}

/** The names of the tools the messages' tool_use blocks call, in order. */
function calledTools(messages: MessageParam[]): string[] {
  return messages.flatMap((message) => (typeof message.content === "string" ? [] : message.content.flatMap((block) => (block.type === "tool_use" ? [block.name] : []))));
}

export const ENDED_MID_CALL = "The session ended before this tool call finished; it may or may not have run.";

/**
 * A session can end between the model asking for tools and their results (a crash, a closed
 * terminal). The API refuses a tool_use without its tool_result, so every later request would fail:
 * the unanswered calls get an error result. Returns the same array when nothing needed answering.
 */
function answerDanglingToolUses(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant" || typeof last.content === "string") return messages;
  const ids = last.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  if (ids.length === 0) return messages;
  const results: ToolResultBlockParam[] = ids.map((id) => ({ type: "tool_result", tool_use_id: id, is_error: true, content: ENDED_MID_CALL }));
  return [...messages, { role: "user", content: results }];
}
