import { createInterface } from "node:readline/promises";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { pendingApprovals, recordApproval } from "../mcp/config/project-approval.ts";
import type { ServerEntry } from "../mcp/config/server-config.ts";
import { launchLines } from "../terminal/render-launch.ts";

/**
 * At REPL start, at a terminal: asks about each project server (`.mcp.json`) that waits for
 * approval, before anything of it is spawned or contacted. "yes" and "no" are recorded as
 * `cat-code mcp approve` / `deny` would; "later" (or Enter) leaves it waiting and asks next time.
 */
export async function askProjectApprovals(
  entries: ServerEntry[],
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<ServerEntry[]> {
  const pending = pendingApprovals(entries);
  if (pending.length === 0) return entries;
  const reader = createInterface({ input, output, terminal: true });
  const decided = new Map<ServerEntry, ServerEntry>();
  try {
    for (const entry of pending) {
      if (!entry.ok) continue;
      output.write(`${sanitizeForTerminal(entry.source)} wants to start the MCP server '${sanitizeForTerminal(entry.name)}':\n`);
      // Everything that decides what runs, whole: the approval covers all of it.
      output.write(`${launchLines(entry, "  ").join("\n")}\n`);
      const answer = (await reader.question("Allow it? [y]es / [n]o, never / [l]ater ")).trim().toLowerCase();
      if (answer === "y" || answer === "yes") decided.set(entry, await recordApproval(entry, "approved"));
      else if (answer === "n" || answer === "no") decided.set(entry, await recordApproval(entry, "denied"));
    }
  } finally {
    reader.close();
  }
  return entries.map((entry) => decided.get(entry) ?? entry);
}
