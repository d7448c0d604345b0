import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { log } from "../../log.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { ServerPool } from "../../mcp/index.ts";
import type { ServedBuiltins } from "../../serve/served-builtins.ts";
import { onShutdown } from "../../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { openPool } from "./open-pool.ts";
import { loadServerEntries, rootsFromArgs, serverSourceArgs } from "./server-selection.ts";

const serveArgs = {
  server: { type: "string", description: "Serve only these configured servers (comma-separated names)", valueHint: "a,b" },
  http: { type: "boolean", description: "Serve Streamable HTTP on 127.0.0.1 instead of stdio (a bearer token is required)" },
  port: { type: "string", description: "With --http: the port (default: a free one, printed)", valueHint: "n" },
  builtin: { type: "boolean", description: "Also serve cat-code's own tools (read_file, write_file, edit_file, grep, glob, bash); a call that needs permission runs only if a settings rule allows it" },
  namespace: {
    type: "boolean",
    default: true,
    description: "--no-namespace: serve the one server (--server <name>) with its tools and prompts under their own names, not <server>__<name>",
  },
  host: { type: "string", description: "With --http: the address to listen on (default 127.0.0.1; any other is reachable from the network)", valueHint: "address" },
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
    if (!args.http && (args.port !== undefined || args.host !== undefined)) throw CliError.usage("--port and --host go with --http");
    const port = parsePort(args.port);
    const roots = rootsFromArgs(rawArgs);
    const entries = selectServers(loadServerEntries(args), args.server);
    const namespaced = args.namespace !== false;
    if (!namespaced) checkUnnamespaced(entries, Boolean(args.builtin));
    // The servers' questions, sampling and in-call roots go to the client when it can answer them
    // (a pool made with a handler declares elicitation, one that relays declares sampling).
    // A long-lived front end: a crashed stdio server is restarted as the agent's are (its clients' subscriptions renewed).
    const pool = openPool(entries, { roots, elicitation: async () => ({ action: "decline" }), relayToClients: true, restartCrashed: {} }, args);
    const builtins = args.builtin ? (await import("../../serve/served-builtins.ts")).servedBuiltinsIn(process.cwd(), (line) => log.warn(sanitizeForTerminal(line))) : undefined;
    if (args.http) return serveOverHttp(pool, { host: args.host ?? "127.0.0.1", port, builtins, namespaced });
    const { serveStdio } = await import("../../serve/serve-stdio.ts");
    try {
      await serveStdio(pool, { builtins, roots, namespaced });
    } finally {
      await pool.closeAll();
    }
  },
});

/** Listens until a signal ends cat-code (the shutdown closes the endpoint, then the servers). */
async function serveOverHttp(pool: ServerPool, options: { host: string; port: number; builtins?: ServedBuiltins; namespaced: boolean }): Promise<never> {
  const { host, port, builtins, namespaced } = options;
  const [{ serveHttp }, { isLoopback }, { loadOrCreateServeToken, serveTokenPath }] = await Promise.all([
    import("../../serve/serve-http.ts"),
    import("../../serve/http-guard.ts"),
    import("../../serve/serve-token.ts"),
  ]);
  if (!isLoopback(host)) {
    log.warn(`listening on ${host}: every machine that can reach it may call your servers' tools with the token; use the default 127.0.0.1 unless you mean it`);
  }
  const { token, created } = loadOrCreateServeToken();
  let endpoint;
  try {
    endpoint = serveHttp(pool, { host, port, token, builtins, namespaced });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw CliError.unavailable(`cannot listen on ${host}:${port}: ${code === "EADDRINUSE" ? "the port is in use; choose another with --port" : (error as Error).message}`);
  }
  onShutdown(() => endpoint.stop());
  // The token is shown once, when it is made; afterwards it is where the file says.
  const tokenLine = created ? `token (shown once, kept in ${serveTokenPath()}): ${token}` : `token: in ${serveTokenPath()}`;
  process.stderr.write(`cat-code mcp serve: listening on ${endpoint.url}\n${tokenLine}\n`);
  return new Promise<never>(() => {});
}

/** `--port`: a whole number from 0 (any free port) to 65535. */
function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || text.trim() === "") throw CliError.usage(`--port must be a whole number from 0 to 65535, got '${text}'`);
  return port;
}

/**
 * `--no-namespace` names items as their server does, which is only unambiguous for one server:
 * two servers (or a server and cat-code's own tools) could both have a `search`.
 */
export function checkUnnamespaced(entries: ServerEntry[], builtin: boolean): void {
  if (entries.length !== 1) {
    const names = entries.map((entry) => entry.name).join(", ");
    throw CliError.usage(
      `--no-namespace serves exactly one server under its own names, but ${entries.length === 0 ? "none is configured" : `${entries.length} would be served (${names})`}; name one with --server <name>`,
    );
  }
  if (builtin) throw CliError.usage("--no-namespace and --builtin do not go together: cat-code's own tools and the server's could share a name");
}

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
