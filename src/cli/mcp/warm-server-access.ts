import type { KeeperClient } from "../../keeper/keeper-client.ts";
import { KeeperFolderError } from "../../keeper/keeper-folder.ts";
import { findOrStartKeeperWith } from "../../keeper/keeper-launch.ts";
import { keeperPaths } from "../../keeper/keeper-paths.ts";
import type { KeeperEvent, KeeperResult, ServerRequest } from "../../keeper/keeper-protocol.ts";
import { log } from "../../log.ts";
import type { ServerStatus } from "../../mcp/index.ts";
import { McpError, serverLogDebugLine } from "../../mcp/light-index.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { CallToolResult } from "../../mcp/protocol.ts";
import { serverEnvironment } from "../../system/own-secrets.ts";
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
  let found: { client: KeeperClient; first?: Opening };
  try {
    found = await findOrStartKeeperWith({ paths: keeperPaths(), version: VERSION }, (client) => opening(client, servers, options));
  } catch (error) {
    if (error instanceof KeeperFolderError) log.warn(`${sanitizeForTerminal(error.message)}; running without the connection keeper`);
    else keeperDebug(`${(error as Error).message}; running without it`);
    return undefined;
  }
  return new WarmServerAccess(found.client, entries.length, found.first ?? opening(found.client, servers, options), options, cold);
}

/** `connect`, and `mcp call`'s call right behind it (ServerAccessOptions.ahead), their answers still to come. */
interface Opening {
  connecting: Promise<KeeperResult<"connect">>;
  ahead?: { server: string; tool: string; answer: Promise<KeeperResult<"call">> };
}

/**
 * The command's first requests, sent together right behind hello (see FirstRequest): the keeper
 * answers them in order, the call once the connect is done, so a warm `mcp call` waits for one
 * round trip in all. Each answer's failure is the command's to handle when it reads it.
 */
function opening(client: KeeperClient, servers: ServerRequest[], options: WarmOptions): Opening {
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
  if (!options.ahead) return { connecting };
  const { server, tool, pairs, onProgress } = options.ahead;
  const answer = client.request(
    { op: "call", server, tool, arguments: options.ahead.arguments ?? {}, ...(pairs === undefined ? {} : { pairs }), elicitation: options.elicitation ?? "decline" },
    { onEvent: (event) => (event.event === "progress" ? onProgress?.(event.progress) : keeperEvent(event, options)) },
  );
  // Refused when the command stops before it (a missing tool, a server that failed): that is no one's failure.
  answer.catch(() => {});
  return { connecting, ahead: { server, tool, answer } };
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
  private readonly connecting: Promise<KeeperResult<"connect">>;
  /** The call sent right behind the connect (ServerAccessOptions.ahead), until `call` takes it. */
  private ahead: Opening["ahead"];

  constructor(
    private readonly client: KeeperClient,
    private readonly count: number,
    /** The answers to `connect` and the call behind it, sent when the keeper was found (see openWarm). */
    { connecting, ahead }: Opening,
    private readonly options: WarmOptions,
    private readonly cold: () => Promise<ServerAccess>,
  ) {
    this.connecting = connecting;
    this.ahead = ahead;
    // Closing the socket is all a Ctrl-C needs: the keeper cancels this command's calls.
    this.release = onShutdown(() => client.close());
  }

  async connectAll(): Promise<void> {
    try {
      const { statuses } = await this.connecting;
      if (statuses.length !== this.count) throw new McpError(undefined, "the connection keeper answered connect with the wrong statuses");
      this.statuses = statuses;
    } catch (error) {
      // Nothing was called yet: the keeper's trouble is no reason to fail what works cold.
      keeperDebug(`connect failed (${(error as Error).message}); connecting the servers in this command`);
      this.client.close();
      this.fallback = await this.cold();
      await this.fallback.connectAll();
    }
  }

  status(): ServerStatus[] {
    return this.fallback ? this.fallback.status() : this.statuses;
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
