import type { PromptBlock } from "../agent/prompt-blocks.ts";
import type { ServerEvent } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";

/** How much of a server's failure the model reads: a crash's reason carries stderr, which the server wrote. */
const MAX_REASON_CHARS = 300;

/**
 * What the model is told of servers that went away (or came back) since its last prompt: a short
 * note at the start of the next user turn. Its tools simply vanish from the tool list otherwise,
 * and a model that remembers calling them would call them again or not understand why it cannot.
 * Only the latest news of each server is kept: a crash and its restart make one note.
 */
export class ServerNotes {
  private readonly pending = new Map<string, string>();

  /** For the pool's `server` event. */
  heard(event: ServerEvent): void {
    const tools = `mcp__${event.server}__*`;
    if (event.kind === "lost") {
      const reason = cutText(event.status.reason.replace(/\s*\n\s*/g, " / "), MAX_REASON_CHARS);
      const restart = event.restartInMs === undefined ? "" : " cat-code restarts it once; another note will say if it is back.";
      this.pending.set(event.server, `MCP server '${event.server}' disconnected (${reason}); its tools (${tools}) are gone.${restart}`);
    } else if (event.kind === "connected" && event.after !== "start") {
      const again = this.pending.has(event.server) ? "disconnected and is connected again" : "is connected now";
      this.pending.set(event.server, `MCP server '${event.server}' ${again}; its tools (${tools}) are available.`);
    } else if (event.kind === "not-connected" && event.after === "restart") {
      this.pending.set(event.server, `MCP server '${event.server}' disconnected and could not be restarted; its tools (${tools}) are gone.`);
    }
  }

  /** The prompt with the pending notes before it, as one text block; the notes are then spent. */
  prepend(prompt: string | PromptBlock[]): string | PromptBlock[] {
    if (this.pending.size === 0) return prompt;
    const lines = [...this.pending.values()];
    this.pending.clear();
    const note: PromptBlock = { type: "text", text: `<system-reminder>\n${lines.join("\n")}\n</system-reminder>` };
    return [note, ...(typeof prompt === "string" ? [{ type: "text" as const, text: prompt }] : prompt)];
  }
}
