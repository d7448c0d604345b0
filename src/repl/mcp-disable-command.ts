import type { ServerPool, ServerStatus } from "../mcp/index.ts";
import { setServerDisabled } from "../settings/settings-writer.ts";
import { nearestNames } from "../terminal/suggest.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";

export interface DisableContext {
  pool: ServerPool;
  print(text: string): void;
  /** Ctrl-C or Esc gives the wait up (enable connects the server); the prompt comes back. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The project's settings.json, where `disabledMcpServers` is kept. */
  settingsFile: string;
  /** The tools besides the servers' that follow them (the resource tools): synced after a change. */
  onToolsChanged(): void;
}

/**
 * `/mcp disable <server>`: its tools leave the conversation at once and its connection is closed;
 * the choice is kept for the project (`disabledMcpServers` in `.cat-code/settings.json`), so the
 * next session does not start it. `/mcp enable <server>` undoes both and connects it.
 */
export async function replSetEnabled(action: "disable" | "enable", name: string, context: DisableContext): Promise<void> {
  const { pool, print } = context;
  const names = pool.status().map((status) => status.name);
  if (name === "") return print(`Usage: /mcp ${action} <server> (one of: ${names.map((n) => sanitizeForTerminal(n)).join(", ") || "none configured"})`);
  const shown = sanitizeForTerminal(name);
  const entry = pool.entry(name);
  if (!entry) {
    const near = nearestNames(name, names);
    return print(`No MCP server '${shown}'.${near.length ? ` Did you mean ${sanitizeForTerminal(near[0]!)}?` : ""} /mcp lists them.`);
  }
  if (!entry.ok) return print(`'${shown}' has an invalid entry (see /mcp): fix it first`);
  const disabled = action === "disable";
  if (disabled === (entry.config.disabled === true)) return print(`MCP server '${shown}' is ${disabled ? "disabled" : "enabled"} already.`);

  const kept = await keep(context.settingsFile, name, disabled);
  if (disabled) {
    const tools = pool.status().find((status) => status.name === name);
    await pool.disable(name);
    context.onToolsChanged();
    const count = tools?.state === "connected" ? `its ${tools.tools.length} tool(s) are out of the conversation` : "it will not be started";
    print(`MCP server '${shown}' disabled: ${count}; ${kept} /mcp enable ${shown} turns it back on.`);
    return;
  }
  print(`Enabling ${shown}…`);
  const status = await context.cancellable((signal) => pool.enable(name, { signal }));
  context.onToolsChanged();
  print(`${status ? enabledLine(status) : `MCP server '${shown}' enabled.`} ${kept}`);
}

/** Writes the choice to the project's settings; a failure leaves it for this session only, and says so. */
async function keep(file: string, name: string, disabled: boolean): Promise<string> {
  const where = sanitizeForTerminal(file);
  try {
    const changed = await setServerDisabled(file, name, disabled);
    if (disabled) return `kept in ${where} (disabledMcpServers).`;
    // Not in the list: disabled by its own entry (`"disabled": true` in mcp.json), which stays as written.
    return changed ? `(taken out of disabledMcpServers in ${where})` : "(for this session: its mcp.json entry says \"disabled\": true)";
  } catch (error) {
    return `for this session only: ${sanitizeForTerminal((error as Error).message)}.`;
  }
}

function enabledLine(status: ServerStatus): string {
  const name = sanitizeForTerminal(status.name);
  switch (status.state) {
    case "connected":
      return `MCP server '${name}' enabled: ${status.tools.length} tool(s).`;
    case "failed":
      return `MCP server '${name}' enabled, but it failed to start: ${sanitizeForTerminal(firstLine(status.reason))} (/mcp reconnect ${name} tries again).`;
    default:
      return `MCP server '${name}' enabled: ${status.state.toUpperCase()}.`;
  }
}
