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
  /** Servers the model was told are still connecting: it hears when they connect (or do not). */
  private readonly announced = new Set<string>();

  /** For the pool's `server` event. */
  heard(event: ServerEvent): void {
    const tools = `mcp__${event.server}__*`;
    if (event.kind === "lost") {
      const reason = cutText(event.status.reason.replace(/\s*\n\s*/g, " / "), MAX_REASON_CHARS);
      const restart = event.restartInMs === undefined ? "" : " cat-code restarts it once; another note will say if it is back.";
      this.pending.set(event.server, `MCP server '${event.server}' disconnected (${reason}); its tools (${tools}) are gone.${restart}`);
    } else if (event.kind === "connected" && event.after === "start" && this.announced.has(event.server)) {
      this.pending.set(event.server, `MCP server '${event.server}' finished connecting; its tools (${tools}) are available.`);
    } else if (event.kind === "not-connected" && event.after === "start" && this.announced.has(event.server)) {
      this.pending.set(event.server, `MCP server '${event.server}' could not connect; its tools (${tools}) are not available.`);
    } else if (event.kind === "connected" && event.after !== "start") {
      const again = this.pending.has(event.server) ? "disconnected and is connected again" : "is connected now";
      this.pending.set(event.server, `MCP server '${event.server}' ${again}; its tools (${tools}) are available.`);
    } else if (event.kind === "not-connected" && event.after === "restart") {
      this.pending.set(event.server, `MCP server '${event.server}' disconnected and could not be restarted; its tools (${tools}) are gone.`);
    }
  }

  /**
   * Servers still connecting as a prompt is sent (the first, mostly): the model is told which, once
   * each, and that `wait_for_mcp_servers` waits for them (at most `boundMs`), so it need not answer
   * without a tool it needs.
   */
  connecting(names: string[], boundMs: number): void {
    const fresh = names.filter((name) => !this.announced.has(name));
    if (fresh.length === 0) return;
    for (const name of fresh) this.announced.add(name);
    const which = fresh.map((name) => `'${name}'`).join(", ");
    this.pending.set("\u0000connecting", `MCP server(s) still connecting: ${which}. Their tools (mcp__<server>__*) are not available yet; if you need one, call wait_for_mcp_servers (it waits at most ${Math.round(boundMs / 1000)} s) instead of answering without it.`);
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
