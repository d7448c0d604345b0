import { resolve } from "node:path";
import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { KeeperFolderError } from "../../keeper/keeper-folder.ts";
import type { KeeperClient } from "../../keeper/keeper-client.ts";
import { keeperPaths } from "../../keeper/keeper-paths.ts";
import type { KeeperConnectionInfo } from "../../keeper/keeper-protocol.ts";
import { until } from "../../keeper/keeper-pause.ts";
import { askKeeper } from "../../keeper/keeper-query.ts";
import { systemClock, type Clock } from "../../system/clock.ts";
import { processAlive } from "../../system/process-alive.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { onShutdown } from "../../terminal/shutdown.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { VERSION } from "../../version.ts";

/** How long `stop` waits for the keeper to close its servers and exit (a server gets 2 s + 2 s to go). */
const STOP_WAIT_MS = 10_000;

interface KeeperStatus {
  version: string;
  pid: number;
  startedAt: number;
  connections: KeeperConnectionInfo[];
}

const verbose = { verbose: { type: "boolean", description: "Log debug lines to stderr" } } as const satisfies ArgsDef;
const runArgs = { ...verbose } as const satisfies ArgsDef;
const statusArgs = { json: { type: "boolean", description: "Print one JSON document" }, ...verbose } as const satisfies ArgsDef;
const stopArgs = {
  server: { type: "positional", required: false, description: "Only this server's warm connections: its next command starts it afresh" },
  ...verbose,
} as const satisfies ArgsDef;

/** `cat-code mcp keeper run`: the keeper itself (started in the background by `mcp call`, `tools`, `list`). */
const run = defineCommand({
  meta: { name: "run", description: "Run the connection keeper in this process (commands start it in the background themselves)" },
  args: runArgs,
  async run({ rawArgs }) {
    rejectUnknownFlags(rawArgs, runArgs);
    // It listens on a Unix socket; a named pipe for Windows is not written yet (commands run cold there).
    if (process.platform === "win32") throw CliError.unavailable("the connection keeper does not run on Windows yet; mcp call, tools and list connect their servers themselves there");
    const { runKeeper } = await import("../../keeper/keeper-server.ts");
    // It outlives the folder it was started from (a checkout deleted, a disk unmounted): it works from
    // its own, so every path it keeps must be absolute first. Servers start in their command's folder.
    if (process.env.CAT_CODE_HOME) process.env.CAT_CODE_HOME = resolve(process.env.CAT_CODE_HOME);
    const paths = keeperPaths();
    let keeper;
    try {
      keeper = await runKeeper({ paths, version: VERSION });
    } catch (error) {
      if (error instanceof KeeperFolderError) throw CliError.unavailable(error.message);
      throw error;
    }
    process.chdir(paths.folder);
    // SIGTERM, SIGINT, SIGHUP...: every server is closed, the socket and keeper.json removed.
    onShutdown(() => keeper.stop());
    await keeper.done;
  },
});

const status = defineCommand({
  meta: { name: "status", description: "Show the connection keeper and the servers it keeps warm" },
  args: statusArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, statusArgs);
    const answer = await ask((client) => client.request({ op: "status" }));
    if (args.json) return console.log(jsonForTerminal(answer ? { running: true, ...answer } : { running: false }, 2));
    if (!answer) return console.log("No connection keeper is running.");
    console.log(statusLines(answer, Date.now()).join("\n"));
  },
});

const stop = defineCommand({
  meta: { name: "stop", description: "Stop the connection keeper and every server it keeps, or only one server's: cat-code mcp keeper stop [<server>]" },
  args: stopArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, stopArgs);
    if (args._.length > 1) throw CliError.usage("usage: cat-code mcp keeper stop [<server>]");
    if (args.server !== undefined) return stopServer(args.server);
    // One connection: the status names the pid to wait for, then the stop.
    const running = await ask(async (client) => {
      const answer = await client.request({ op: "status" });
      await client.request({ op: "stop" });
      return answer;
    });
    if (!running) return console.log("No connection keeper is running.");
    if (!(await keeperExits(running.pid))) throw CliError.unavailable(`the keeper (pid ${running.pid}) did not exit within ${STOP_WAIT_MS / 1000} s; end it with: kill ${running.pid}`);
    console.log(`Stopped the connection keeper (pid ${running.pid}) and its ${running.connections.length} server connection(s).`);
  },
});

export default defineCommand({
  meta: { name: "keeper", description: "The connection keeper: a background process that keeps MCP servers warm for mcp call, tools and list" },
  subCommands: { run, status, stop },
});

/** `mcp keeper stop <server>`: that server's warm connections closed (their state with them); the keeper stays. */
async function stopServer(name: string): Promise<void> {
  const answer = await ask((client) => client.request({ op: "close", server: name }));
  if (!answer) return console.log("No connection keeper is running.");
  if (answer.closed === 0) return console.log(`The connection keeper holds no server '${clean(name)}'.`);
  console.log(`Stopped ${answer.closed} warm connection(s) of '${clean(name)}'; its next command starts it afresh.`);
}

async function ask<T>(exchange: (client: KeeperClient) => Promise<T>): Promise<T | undefined> {
  try {
    return await askKeeper(keeperPaths(), VERSION, exchange);
  } catch (error) {
    throw CliError.unavailable(`the connection keeper: ${(error as Error).message}`);
  }
}

/** `keeper  pid 123  version 1.2.0  up 4m 2s`, then one line per connection. */
function statusLines(status: KeeperStatus, now: number): string[] {
  const lines = [`keeper  pid ${status.pid}  version ${clean(status.version)}  up ${duration(now - status.startedAt)}`];
  if (status.connections.length === 0) lines.push("  (no server connections)");
  for (const c of status.connections) {
    lines.push(
      `  ${clean(c.name)}  ${c.state.toUpperCase()}  age ${duration(c.ageMs)}  idle ${duration(c.idleMs)}  ${c.calls} call(s)${memory(c.rssBytes)}  ${clean(c.fingerprint)}  (${clean(c.description)})`,
    );
  }
  return lines;
}

/** `  rss 77 MB`: its server's process tree; nothing for an HTTP server. */
function memory(bytes: number | undefined): string {
  if (bytes === undefined) return "";
  const mb = bytes / (1024 * 1024);
  return `  rss ${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

function clean(text: string): string {
  return sanitizeForTerminal(String(text));
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

/**
 * Whether the keeper at `pid` exits within `ms` (it closes its servers before it exits). Exited is
 * enough: its parent may reap it late, or never (a container's init), and a zombie is done.
 */
export function keeperExits(pid: number, clock: Clock = systemClock, ms = STOP_WAIT_MS): Promise<boolean> {
  return until(() => !processAlive(pid), clock, ms);
}
