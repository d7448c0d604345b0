import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { userBlocks } from "./message-blocks.ts";
import type { PromptBlock } from "./prompt-blocks.ts";

/**
 * How the conversation changed, for whoever keeps a copy (the session file, for --resume): a new
 * message, the last one grown (a user message joined by more blocks), or all of it replaced (/clear,
 * compaction, a failed prompt taken out).
 */
export type ConversationChange =
  | { kind: "push"; message: MessageParam }
  | { kind: "update-last"; message: MessageParam }
  | { kind: "reset"; messages: MessageParam[] };

/**
 * The messages of one conversation, kept valid for the next request whatever happened to the last
 * one: roles alternate, and every tool_use is answered by a tool_result. A cancelled or failed turn
 * can leave a user message last; the next prompt then joins it instead of starting a second one.
 */
export class Conversation {
  private messages: Turn[] = [];
  /** Hears every change, after it is made; the message given is a copy. */
  onChange: ((change: ConversationChange) => void) | undefined;

  /** A copy: the SDK keeps the array it is given, and the conversation goes on changing. */
  snapshot(): MessageParam[] {
    return this.messages.map(copyOf);
  }

  get length(): number {
    return this.messages.length;
  }

  addUserText(text: string): void {
    this.addUser([{ type: "text", text }]);
  }

  /** A turn of several parts: typed text, attached resources, a prompt's messages. */
  addUserBlocks(blocks: readonly PromptBlock[]): void {
    this.addUser(userBlocks(blocks));
  }

  addToolResults(results: ToolResultBlockParam[]): void {
    if (results.length) this.addUser(results);
  }

  /** The model's answer, reduced to the blocks that can be sent back. An empty answer is left out. */
  addAssistant(content: ContentBlock[]): void {
    const blocks = content.flatMap(toParam);
    if (blocks.length) this.push({ role: "assistant", content: blocks });
  }

  clear(): void {
    this.messages = [];
    this.onChange?.({ kind: "reset", messages: [] });
  }

  /** Starts from saved messages (a resumed session); no change is reported, they are saved already. */
  load(messages: readonly MessageParam[]): void {
    this.messages = turnsOf(messages);
  }

  /**
   * Replaces every message (compaction, a failed prompt taken out), reported as a "reset".
   * Two user messages in a row (a summary, then the prompt it was made for) become one.
   */
  replace(messages: readonly MessageParam[]): void {
    this.messages = [];
    for (const turn of turnsOf(messages)) {
      if (turn.role === "user" && this.messages.at(-1)?.role === "user") this.joinLastUser(turn.content);
      else this.messages.push(turn);
    }
    this.onChange?.({ kind: "reset", messages: this.snapshot() });
  }

  private push(message: Turn): void {
    this.messages.push(message);
    this.onChange?.({ kind: "push", message: copyOf(message) });
  }

  private addUser(blocks: ContentBlockParam[]): void {
    if (this.messages.at(-1)?.role === "user") {
      // Joined first: `onChange?.(…)` would skip evaluating its argument when nobody listens.
      const last = this.joinLastUser(blocks);
      this.onChange?.({ kind: "update-last", message: copyOf(last) });
    } else {
      this.push({ role: "user", content: blocks });
    }
  }

  private joinLastUser(blocks: ContentBlockParam[]): Turn {
    const last = this.messages.at(-1)!;
    // tool_result blocks must come first in a user message, so the results go before any text.
    const results = [...last.content, ...blocks].filter((block) => block.type === "tool_result");
    const others = [...last.content, ...blocks].filter((block) => block.type !== "tool_result");
    last.content = [...results, ...others];
    return last;
  }
}

function turnsOf(messages: readonly MessageParam[]): Turn[] {
  return messages.flatMap((message): Turn[] =>
    message.role === "user" || message.role === "assistant"
      ? [{ role: message.role, content: typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content] }]
      : [],
  );
}

interface Turn {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

function copyOf(message: Turn): MessageParam {
  return { role: message.role, content: [...message.content] };
}

function toParam(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : [{ type: "text", text: block.text }];
    case "tool_use":
      return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
    case "thinking":
      return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
    case "redacted_thinking":
      return [{ type: "redacted_thinking", data: block.data }];
    default:
      // Server-side tool blocks are not used by cat-code; dropping them keeps the history sendable.
      return [];
  }
}
