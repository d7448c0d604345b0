import type { ServerStatus } from "../mcp/index.ts";
import { revisionText, type LoginHint } from "../terminal/render-status.ts";
import { alignColumns, firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { wrapIndented } from "../terminal/text-wrap.ts";

/**
 * The REPL's `/mcp`: one row per server, the same columns for all (state, tool count, revision,
 * time to connect, the last error or what to do, where it runs), so a glance down a column
 * compares them; a column empty for every server is left out:
 *
 *     echo    CONNECTED   1 tool(s)  2025-11-25 (handshake)  12 ms                                     (stdio: ./echo.sh)
 *     crashy  FAILED                                                the server exited with code 3 → /mcp reconnect crashy  (stdio: ./crashy)
 *     linear  NEEDS-AUTH                                            run: /mcp login linear              (http: https://…)
 *
 * A failure's further lines (its stderr tail) follow its row, indented. Server text is sanitized.
 * At a terminal `columns` wide, a longer row wraps between words, its next lines indented.
 */
export function mcpTable(statuses: ServerStatus[], loginHint: LoginHint, columns?: number): string[] {
  const rows: string[][] = [];
  const details = new Map<number, string[]>();
  for (const status of statuses) {
    const [tools, revision, time] =
      status.state === "connected" ? [`${status.tools.length} tool(s)`, revisionText(status), status.connectMs === undefined ? "" : formatMs(status.connectMs)] : ["", "", ""];
    const where = status.description ? `(${status.description})` : "";
    rows.push([status.name, status.state.toUpperCase(), tools, revision, time, lastColumn(status, loginHint), where]);
    if (status.state === "failed") {
      const more = [...status.reason.split("\n").slice(1), ...status.stderr.map((line) => `stderr: ${line}`)];
      if (more.length) details.set(rows.length - 1, more);
    }
  }
  const used = rows[0]?.map((_, column) => rows.some((row) => row[column] !== "")) ?? [];
  const shown = rows.map((row) => row.filter((_, column) => used[column]).map((cell) => sanitizeForTerminal(cell)));
  const lines = alignColumns(shown).flatMap((line, i) => [
    line.trimEnd(),
    ...(details.get(i) ?? []).map((detail) => `    ${sanitizeForTerminal(detail)}`),
  ]);
  return columns === undefined ? lines : lines.flatMap((line) => wrapIndented(line.trimStart(), columns, /^ */.exec(line)?.[0] ?? "", "      "));
}

/** The last error, or what to do about the state; a project server is tagged. */
function lastColumn(status: ServerStatus, loginHint: LoginHint): string {
  const tag = status.scope === "project" ? " [project]" : "";
  switch (status.state) {
    case "connected":
      return status.lastError === undefined ? tag.trim() : `last error: ${reasonHeadline(status.lastError)}${tag}`;
    case "failed":
      return `${reasonHeadline(status.reason)} → /mcp reconnect ${status.name}${tag}`;
    case "needs-auth":
      return `run: ${loginHint(status.name)}${tag}`;
    case "invalid":
      return `${firstLine(status.reason)} (${status.source})`;
    case "pending":
      return tag.trim();
    case "needs-approval":
    case "denied":
      return `(project: ${status.source})`;
    case "disabled":
      return tag.trim();
  }
}

/**
 * A failure's first line for a one-line cell: an exit's `; its last stderr lines:` is dropped (the
 * lines follow the row, or are there to read in /mcp).
 */
export function reasonHeadline(reason: string): string {
  return firstLine(reason).replace(/;? its last stderr lines:$/, "");
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
