import type { KeeperClient } from "../../keeper/keeper-client.ts";
import { KeeperFolderError } from "../../keeper/keeper-folder.ts";
import { findOrStartKeeperWith } from "../../keeper/keeper-launch.ts";
import { keeperPaths } from "../../keeper/keeper-paths.ts";
import type { KeeperEvent, KeeperResult, ServerRequest } from "../../keeper/keeper-protocol.ts";
import { log } from "../../log.ts";
import type { ServerStatus } from "../../mcp/index.ts";
import { serverLogDebugLine } from "../../mcp/light-index.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { CallToolResult } from "../../mcp/protocol.ts";
import { serverEnvironment } from "../../system/own-secrets.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { onShutdown } from "../../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { VERSION } from "../../version.ts";
import type { ServerAccess, ServerAccessOptions } from "./server-access-contract.ts";

type WarmOptions = Omit<ServerAccessOptions, "roots"> & { roots: string[] };

/**
 * The servers held by the connection keeper, or undefined when there is no keeper to be had (the
 * command then runs cold: an unsafe folder says so in a warning, anything else in a debug line).
 * `cold` opens the same servers the command's own way, for a keeper that fails before they connect.
 */
export async function openWarm(entries: ServerEntry[], options: WarmOptions, cold: () => Promise<ServerAccess>): Promise<ServerAccess | undefined> {
  const servers = entries.map((entry) => serverRequest(entry));
  let found: { client: KeeperClient; first?: Promise<KeeperResult<"connect">> };
  try {
    found = await findOrStartKeeperWith({ paths: keeperPaths(), version: VERSION }, (client) => connect(client, servers, options));
  } catch (error) {
    if (error instanceof KeeperFolderError) log.warn(`${sanitizeForTerminal(error.message)}; running without the connection keeper`);
    else keeperDebug(`${(error as Error).message}; running without it`);
    return undefined;
  }
  const access = new WarmServerAccess(found.client, entries.length, found.first ?? connect(found.client, servers, options), options, cold);
  // Only now, once hello's answer proved the keeper ready and of this build: a call sent before it
  // could run in a keeper the command then gives up on (no hello answer within the second) and be
  // sent again to the one that replaces it, and a tool must never run twice for one command.
  if (options.ahead) access.callAhead(options.ahead);
  return access;
}

/**
 * The command's `connect`, sent right behind hello (see FirstRequest): sending it twice is harmless.
 * Its failure is the command's to handle when it reads the answer.
 */
function connect(client: KeeperClient, servers: ServerRequest[], options: WarmOptions): Promise<KeeperResult<"connect">> {
  const connecting = client.request(
    {
      op: "connect",
      servers,
      roots: options.roots,
      // Told the command answers questions only if it would say so cold (mcp call): the same tools, warm or cold.
      elicitation: options.elicitation !== undefined,
      // Only `mcp call` says what its servers' questions get, and it calls a tool next.
      callFollows: options.elicitation !== undefined,
      ...(options.tool === undefined ? {} : { tool: options.tool }),
    },
    { onEvent: (event) => keeperEvent(event, options) },
  );
  connecting.catch(() => {});
  return connecting;
}

/**
 * Each server as the command would start it itself: the resolved entry, and for a stdio server the
 * environment the command would give it and its working directory. The keeper's own are never used.
 * Except `_`: the shell sets it to the path it ran *us* by (`./cat-code`, `/usr/bin/time`), which
 * tells a server nothing and would start a new server for each way of typing the command.
 */
export function serverRequest(entry: ServerEntry, cwd = process.cwd(), parentEnv = process.env): ServerRequest {
  if (!entry.ok || entry.config.type !== "stdio") return { entry, launch: { env: {}, cwd } };
  const { _: _shellPath, ...env } = serverEnvironment(entry.config.env, parentEnv).env;
  return { entry, launch: { env: entry.config.env && "_" in entry.config.env ? { ...env, _: entry.config.env._! } : env, cwd } };
}

class WarmServerAccess implements ServerAccess {
  private statuses: ServerStatus[] = [];
  /** The command's own servers, once the keeper failed before they connected. */
  private fallback: ServerAccess | undefined;
  private readonly release: () => void;
  /** The call sent right behind the connect (ServerAccessOptions.ahead), until `call` takes it. */
  private ahead: { server: string; tool: string; answer: Promise<KeeperResult<"call">> } | undefined;

  constructor(
    private readonly client: KeeperClient,
    private readonly count: number,
    /** The answer to `connect`, sent when the keeper was found (see openWarm). */
    private readonly connecting: Promise<KeeperResult<"connect">>,
    private readonly options: WarmOptions,
    private readonly cold: () => Promise<ServerAccess>,
  ) {
    // Closing the socket is all a Ctrl-C needs: the keeper cancels this command's calls.
    this.release = onShutdown(() => client.close());
  }

  async connectAll(): Promise<void> {
    let statuses: ServerStatus[];
    try {
      ({ statuses } = await this.connecting);
    } catch (error) {
      // A keeper that ended or refused the socket runs nothing more; one gone silent may still act on what it read.
      return this.runCold((error as Error).message, this.client.wentSilent);
    }
    // Answered, so the keeper goes on to the call sent behind the connect.
    if (statuses.length !== this.count) return this.runCold("the connection keeper answered connect with the wrong statuses", true);
    this.statuses = statuses;
  }

  /**
   * The keeper failed before the servers connected: the command connects them itself, as cold. Not
   * when a call went ahead that the keeper may still run (`callMayRun`): made here too, the tool
   * could run twice for one command, so the command fails instead, saying why.
   */
  private async runCold(why: string, callMayRun: boolean): Promise<void> {
    this.client.close();
    if (this.ahead && callMayRun) {
      throw CliError.unavailable(`${why}; the call '${this.ahead.tool}' was sent to it and may have run there, so it is not made again: check, then run the command again`);
    }
    keeperDebug(`connect failed (${why}); connecting the servers in this command`);
    this.fallback = await this.cold();
    await this.fallback.connectAll();
  }

  status(): ServerStatus[] {
    return this.fallback ? this.fallback.status() : this.statuses;
  }

  /** Sends `mcp call`'s call before connect's answer: the keeper makes it wait for the connect. */
  callAhead(ahead: NonNullable<ServerAccessOptions["ahead"]>): void {
    const { server, tool, pairs, onProgress } = ahead;
    const answer = this.client.request(
      { op: "call", server, tool, arguments: ahead.arguments ?? {}, ...(pairs === undefined ? {} : { pairs }), elicitation: this.options.elicitation ?? "decline" },
      { onEvent: (event) => (event.event === "progress" ? onProgress?.(event.progress) : keeperEvent(event, this.options)) },
    );
    // Refused when the command stops before it (a missing tool, a server that failed): that is no one's failure.
    answer.catch(() => {});
    this.ahead = { server, tool, answer };
  }

  async call(...[server, tool, args, options = {}]: Parameters<ServerAccess["call"]>): Promise<CallToolResult> {
    if (this.fallback) return this.fallback.call(server, tool, args, options);
    const ahead = this.ahead;
    this.ahead = undefined;
    // Its arguments are these: the command converted the same words by the same schema as the keeper.
    if (ahead && ahead.server === server && ahead.tool === tool) return (await ahead.answer).result;
    const onProgress = options.onProgress;
    // It rejects with the same McpError the server's answer gave a cold call: call-command's catch is unchanged.
    const { result } = await this.client.request(
      { op: "call", server, tool, arguments: args, elicitation: this.options.elicitation ?? "decline" },
      { signal: options.signal, onEvent: (event) => (event.event === "progress" ? onProgress?.(event.progress) : keeperEvent(event, this.options)) },
    );
    return result;
  }

  async closeAll(): Promise<void> {
    this.release();
    this.client.close();
    await this.fallback?.closeAll();
  }

}

/** A keeper event of a command's request, as the command's own pool would have said it. */
function keeperEvent(event: KeeperEvent, options: WarmOptions): void {
  if (event.event === "log") {
    const { entry } = event;
    log.debug(serverLogDebugLine(entry));
    options.onServerLog?.(entry);
  }
  if (event.event === "note") options.onNote?.(event.line);
  if (event.event === "warning") log.warn(event.message);
}

/**
 * A running keeper closes the server's warm connections (`mcp login`, `mcp logout`): one kept from
 * before would carry the old sign-in's MCP session and server-side state into the next command. No
 * keeper, none started; one that does not answer fails nothing (the sign-in or sign-out is done): a
 * debug line says so.
 */
export async function closeWarmConnections(name: string, shown: string): Promise<void> {
  try {
    // Loaded here: a warm command never needs it.
    const { askKeeper } = await import("../../keeper/keeper-query.ts");
    const answer = await askKeeper(keeperPaths(), VERSION, (client) => client.request({ op: "close", server: name }));
    if (answer) log.debug(`connection keeper: closed ${answer.closed} warm connection(s) of '${shown}'`);
  } catch (error) {
    log.debug(`connection keeper: could not close the warm connections of '${shown}': ${(error as Error).message}`);
  }
}

export function keeperDebug(line: string): void {
  log.debug(`connection keeper: ${line}`);
}
