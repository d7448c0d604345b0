import type { ServerLogEntry } from "../mcp/index.ts";
import { atLeast } from "../mcp/text-index.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/** Enough for a server with something to say; a server that says more is flooding. */
export const MAX_WARNING_LINES_PER_SERVER = 20;

/**
 * Which server warnings reach the screen: a server may send thousands, and each would be a line.
 * Each server gets MAX_WARNING_LINES_PER_SERVER lines until reset (the REPL resets at each prompt),
 * then one line saying the rest are hidden; the debug log keeps every one of them.
 */
export class ServerLogLines {
  private readonly shown = new Map<string, number>();

  constructor(private readonly maxPerServer = MAX_WARNING_LINES_PER_SERVER) {}

  /** The line to print for `entry`, or undefined: below warning, or over the server's budget. */
  lineFor(entry: ServerLogEntry): string | undefined {
    const line = serverLogLine(entry);
    if (line === undefined) return undefined;
    const count = (this.shown.get(entry.server) ?? 0) + 1;
    this.shown.set(entry.server, count);
    if (count <= this.maxPerServer) return line;
    if (count === this.maxPerServer + 1) return `⚠ ${sanitizeForTerminal(entry.server)}: more warnings not shown (CAT_CODE_DEBUG=1 logs them all)`;
    return undefined;
  }

  reset(): void {
    this.shown.clear();
  }
}

/**
 * The one line a server's log message gets in front of the user: `⚠ files: disk almost full`, or
 * `⚠ files: error: cannot read x` above warning; undefined below warning (those go to the debug
 * log only). Server text: sanitized, newlines included, so it stays one line.
 */
export function serverLogLine(entry: ServerLogEntry): string | undefined {
  if (!atLeast(entry.level, "warning")) return undefined;
  const level = entry.level === "warning" ? "" : `${entry.level}: `;
  const logger = entry.logger ? `${entry.logger}: ` : "";
  return sanitizeForTerminal(`⚠ ${entry.server}: ${level}${logger}${entry.data}`);
}
