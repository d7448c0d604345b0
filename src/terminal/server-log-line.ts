import { atLeast, type ServerLogEntry } from "../mcp/client/server-log.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

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
