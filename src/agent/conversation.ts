import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { userBlocks } from "./message-blocks.ts";
import type { PromptBlock } from "./prompt-blocks.ts";

/**
 * The messages of one conversation, kept valid for the next request whatever happened to the last
 * one: roles alternate, and every tool_use is answered by a tool_result. A cancelled or failed turn
 * can leave a user message last; the next prompt then joins it instead of starting a second one.
 */
export class Conversation {
  private messages: Turn[] = [];

  /** A copy: the SDK keeps the array it is given, and the conversation goes on changing. */
  snapshot(): MessageParam[] {
    return this.messages.map((message) => ({ role: message.role, content: [...message.content] }));
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
    if (blocks.length) this.messages.push({ role: "assistant", content: blocks });
  }

  clear(): void {
    this.messages = [];
  }

  private addUser(blocks: ContentBlockParam[]): void {
    const last = this.messages.at(-1);
    if (last?.role === "user") {
      // tool_result blocks must come first in a user message, so the results go before any text.
      const results = [...last.content, ...blocks].filter((block) => block.type === "tool_result");
      const others = [...last.content, ...blocks].filter((block) => block.type !== "tool_result");
      last.content = [...results, ...others];
    } else {
      this.messages.push({ role: "user", content: blocks });
    }
  }
}

interface Turn {
  role: "user" | "assistant";
  content: ContentBlockParam[];
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
