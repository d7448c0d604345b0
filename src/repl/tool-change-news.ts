import type { ToolDefinition } from "../mcp/protocol.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** The least time between two news lines of one server about its tools. */
export const TOOL_NEWS_INTERVAL_MS = 5_000;

/**
 * The REPL's lines for servers whose tools changed: at most one per server per interval. The first
 * change is told at once; those that follow within the interval are held, and the latest of them
 * is told when it ends, so the last word is always the current list. A server that changes its
 * list in a loop costs one line per interval, not a screenful.
 */
export class ToolChangeNews {
  private readonly servers = new Map<string, { toldAt: number; held?: string; timer?: ClockTimer }>();

  constructor(
    private readonly tell: (line: string) => void,
    private readonly clock: Clock = systemClock,
    private readonly intervalMs = TOOL_NEWS_INTERVAL_MS,
  ) {}

  /** For the pool's `tools-changed` event. */
  changed(server: string, tools: readonly ToolDefinition[]): void {
    const line = `MCP: ${sanitizeForTerminal(server)} now has ${tools.length} tool(s)`;
    const state = this.servers.get(server);
    const now = this.clock.now();
    if (!state || now - state.toldAt >= this.intervalMs) {
      this.servers.set(server, { toldAt: now });
      this.tell(line);
      return;
    }
    state.held = line;
    if (state.timer) return;
    state.timer = this.clock.setTimeout(() => {
      state.timer = undefined;
      if (state.held === undefined) return;
      this.tell(state.held);
      state.held = undefined;
      state.toldAt = this.clock.now();
    }, state.toldAt + this.intervalMs - now);
    // Held news never keeps cat-code running after the user is done.
    state.timer.unref();
  }

  /** Drops held lines and their timers (the REPL is ending). Safe to call twice. */
  close(): void {
    for (const state of this.servers.values()) if (state.timer) this.clock.clearTimeout(state.timer);
    this.servers.clear();
  }
}
