import { defineCommand, type ArgsDef } from "citty";
import { log } from "../../log.ts";
import { loadConfiguredServers } from "../../mcp/config/configured-servers.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { ServerStatus } from "../../mcp/pool/tool-pool.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rejectUnknownFlags } from "../known-flags.ts";
import { printResult } from "../../terminal/output.ts";
import { statusToJson } from "../../terminal/render-status.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { alignColumns, sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { maskedEntry } from "./masked-entry.ts";
import { loadServerEntries, openPool } from "./server-selection.ts";

const getArgs = {
  name: { type: "positional", required: false, description: "The server's name" },
  json: { type: "boolean", description: "Print one JSON document" },
  "mcp-config": { type: "string", description: "Read servers from this file instead of ~/.cat-code/mcp.json and ./.mcp.json", valueHint: "file" },
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "get", description: "Show one server's entry (secrets masked), where it comes from, and its live state" },
  args: getArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, getArgs);
    if (args.name === undefined) throw CliError.usage("usage: cat-code mcp get <name>");
    const { entries, shadowed } = loadEntries(args["mcp-config"]);
    const entry = entries.find((e) => e.name === args.name);
    if (!entry) throw CliError.usage(unknownNameMessage("server", args.name, entries.map((e) => e.name)));
    const overrides = shadowed.find((e) => e.name === entry.name)?.source;

    // A project server that is not approved stays as it is: the pool starts nothing for it.
    const pool = openPool([entry]);
    let status: ServerStatus;
    try {
      await pool.connectAll();
      status = pool.status()[0] as ServerStatus;
    } finally {
      await pool.closeAll();
    }

    if (args.json) {
      const json = { name: entry.name, scope: entry.scope, file: entry.source, overrides: overrides ?? null, entry: maskedEntry(entry.raw), status: statusToJson(status) };
      await printResult(JSON.stringify(json, null, 2));
      return;
    }
    await printResult(renderEntry(entry, status, overrides).join("\n"));
  },
});

function loadEntries(flagFile: string | undefined): { entries: ServerEntry[]; shadowed: ServerEntry[] } {
  if (flagFile !== undefined) return { entries: loadServerEntries({ "mcp-config": flagFile }), shadowed: [] };
  const loaded = loadConfiguredServers();
  for (const warning of loaded.warnings) log.warn(warning);
  return { entries: loaded.servers, shadowed: loaded.shadowed };
}

function renderEntry(entry: ServerEntry, status: ServerStatus, overrides: string | undefined): string[] {
  const rows: string[][] = [
    ["scope:", entry.scope],
    ["file:", entry.source],
  ];
  if (overrides) rows.push(["overrides:", `the user entry in ${overrides}`]);
  const masked = maskedEntry(entry.raw);
  if (typeof masked === "object" && masked !== null && !Array.isArray(masked)) {
    for (const [key, value] of Object.entries(masked)) rows.push(...fieldRows(key, value));
  } else {
    rows.push(["entry:", JSON.stringify(masked) ?? ""]);
  }
  rows.push(...statusRows(entry, status));
  const lines = alignColumns(rows.map(([label = "", value = ""]) => [label, sanitizeForTerminal(value)]));
  return [entry.name, ...lines.map((line) => `  ${line}`)];
}

function fieldRows(key: string, value: unknown): string[][] {
  if ((key === "env" || key === "headers") && typeof value === "object" && value !== null) {
    const separator = key === "env" ? "=" : ": ";
    const items = Object.entries(value).map(([name, masked]) => `${name}${separator}${masked}`);
    return items.length === 0 ? [[`${key}:`, "(none)"]] : items.map((item, i) => [i === 0 ? `${key}:` : "", item]);
  }
  return [[`${key}:`, typeof value === "string" ? value : JSON.stringify(value)]];
}

function statusRows(entry: ServerEntry, status: ServerStatus): string[][] {
  const state = status.state.toUpperCase();
  switch (status.state) {
    case "connected": {
      const info = status.serverInfo;
      return [
        ["status:", `${state}  ${status.tools.length} tool(s)`],
        ["server:", `${info ? `${info.name} ${info.version}` : "(no serverInfo)"}  (protocol ${status.protocolVersion})`],
        ["tools:", status.tools.map((tool) => tool.name).join(", ") || "(none)"],
      ];
    }
    case "failed":
      return [
        ["status:", `${state}  ${status.reason.split("\n")[0]}`],
        ...[...status.reason.split("\n").slice(1), ...status.stderr.map((line) => `stderr: ${line}`)].map((line) => ["", line]),
      ];
    case "invalid":
      return [["status:", `${state}  ${status.reason}`]];
    case "needs-approval":
      return [["status:", `${state}  not started; to allow it: cat-code mcp approve ${entry.name}`]];
    case "denied":
      return [["status:", `${state}  not started; to allow it: cat-code mcp approve ${entry.name}`]];
    default:
      return [["status:", state]];
  }
}
