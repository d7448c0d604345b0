import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { openPool } from "./open-pool.ts";
import { loadServerEntries, rootsFromArgs, serverSourceArgs } from "./server-selection.ts";

const serveArgs = {
  server: { type: "string", description: "Serve only these configured servers (comma-separated names)", valueHint: "a,b" },
  ...serverSourceArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: {
    name: "serve",
    description: "Serve every configured MCP server (or --server a,b) as one MCP server over stdio, tools named <server>__<tool>",
  },
  args: serveArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, serveArgs);
    const roots = rootsFromArgs(rawArgs);
    const entries = selectServers(loadServerEntries(args), args.server);
    // The servers' questions go to the client when it can answer them (a pool made with a handler declares elicitation).
    const pool = openPool(entries, { roots, elicitation: async () => ({ action: "decline" }) }, args);
    const { serveStdio } = await import("../../serve/serve-stdio.ts");
    try {
      await serveStdio(pool);
    } finally {
      await pool.closeAll();
    }
  },
});

/** `--server a,b`: those entries, in config order; an unknown name is a usage error listing those that exist. */
export function selectServers(entries: ServerEntry[], names: string | undefined): ServerEntry[] {
  if (names === undefined) return entries;
  const wanted = names.split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (wanted.length === 0) throw CliError.usage("--server needs at least one server name, e.g. --server echo,github");
  for (const name of wanted) {
    if (!entries.some((entry) => entry.name === name)) throw CliError.usage(`--server: ${unknownNameMessage("server", name, entries.map((e) => e.name))}`);
  }
  return entries.filter((entry) => wanted.includes(entry.name));
}
