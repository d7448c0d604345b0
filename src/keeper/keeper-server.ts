import { rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { log } from "../log.ts";
import { EraMemory } from "../mcp/index.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import { checkKeeperFile, KeeperFolderError, prepareKeeperFolder } from "./keeper-folder.ts";
import { newKeeperToken, readKeeperInfo, removeIfOurs, writeKeeperInfo } from "./keeper-info.ts";
import type { KeeperPaths } from "./keeper-paths.ts";
import { KEEPER_PROTOCOL, MAX_KEEPER_LINE_BYTES } from "./keeper-protocol.ts";
import { KeeperConnection } from "./keeper-connection.ts";
import { bindKeeperSocket, socketAnswers } from "./keeper-socket.ts";
import { WarmConnections, type WarmConnectionsOptions } from "./warm-connections.ts";

/** A keeper that holds no connection and serves no command exits this long after the last one went. */
export const KEEPER_EMPTY_GRACE_MS = 30_000;
/** How often a keeper checks that keeper.json is still its own (else it was replaced: it stops). */
export const KEEPER_OWNERSHIP_CHECK_MS = 60_000;

export interface KeeperOptions {
  paths: KeeperPaths;
  version: string;
  clock?: Clock;
  emptyGraceMs?: number;
  /** 0: never (tests that count timers). */
  ownershipCheckMs?: number;
  /** Tests: a smaller bound than MAX_KEEPER_LINE_BYTES. */
  maxLineBytes?: number;
  /** Tests: the connections' transports, their bound. */
  warm?: Pick<WarmConnectionsOptions, "createTransport" | "maxConnections" | "env">;
}

export interface RunningKeeper {
  pid: number;
  startedAt: number;
  /** Resolves once the keeper has stopped (asked to, or empty past the grace) and cleaned up. */
  done: Promise<void>;
  /** Closes every server and the socket, removes the socket and keeper.json if still ours. Safe twice. */
  stop(): Promise<void>;
}

/**
 * Starts the connection keeper: checks (or creates) its private folder, writes `keeper.json` with a
 * new token, and serves the protocol on the socket until asked to stop or empty past the grace.
 * Throws KeeperFolderError when the folder or its files are not safe, or when another keeper
 * answers on the socket (never unlinked from under a live keeper).
 */
export async function runKeeper(options: KeeperOptions): Promise<RunningKeeper> {
  const { paths, version } = options;
  const clock = options.clock ?? systemClock;
  const emptyGraceMs = options.emptyGraceMs ?? KEEPER_EMPTY_GRACE_MS;
  prepareKeeperFolder(paths.folder);
  checkKeeperFile(paths.socket);
  checkKeeperFile(paths.info);
  // Told before keeper.json is touched; two keepers starting at the same moment are told apart below.
  if (await socketAnswers(paths.socket)) throw new KeeperFolderError(`another keeper is running on ${paths.socket}; stop it first: cat-code mcp keeper stop`, paths.socket);

  const token = newKeeperToken();
  const startedAt = Date.now();
  const connections = new Set<KeeperConnection>();
  let emptyTimer: ClockTimer | undefined;
  let ownershipTimer: ClockTimer | undefined;
  let stopping: Promise<void> | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));

  const checkEmpty = (): void => {
    const empty = warm.size === 0 && connections.size === 0;
    if (!empty && emptyTimer) clock.clearTimeout(emptyTimer);
    if (!empty) emptyTimer = undefined;
    else if (!emptyTimer && !stopping) emptyTimer = clock.setTimeout(() => void stop("empty"), emptyGraceMs);
  };
  const warm = new WarmConnections({ version, clock, eraMemory: new EraMemory(), ...options.warm, onClosed: () => checkEmpty() });
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log.debug(`keeper ${process.pid}: stopping (${why})`);
      if (emptyTimer) clock.clearTimeout(emptyTimer);
      if (ownershipTimer) clock.clearTimeout(ownershipTimer);
      server.close();
      for (const connection of connections) connection.end();
      await warm.closeAll();
      removeIfOurs(paths, token);
      finished();
    })();
    return stopping;
  };
  const host = { token, warm, maxLineBytes: options.maxLineBytes ?? MAX_KEEPER_LINE_BYTES, clock, identity: () => ({ version, pid: process.pid, startedAt }), stop: () => void stop("asked to stop") };

  const server: Server = createServer((socket) => {
    if (stopping) return void socket.destroy();
    const connection = new KeeperConnection(socket, host, () => {
      connections.delete(connection);
      checkEmpty();
    });
    connections.add(connection);
    checkEmpty();
  });
  // keeper.json first: a command that finds it before the socket sees no keeper yet and waits its turn.
  const previous = readKeeperInfo(paths.info);
  writeKeeperInfo(paths.info, { pid: process.pid, version, protocol: KEEPER_PROTOCOL, token, startedAt });
  try {
    await bindKeeperSocket(server, paths.socket);
  } catch (error) {
    server.close();
    // Another keeper got the socket first (started at the same moment): its keeper.json is put back.
    if (readKeeperInfo(paths.info)?.token === token) {
      if (previous) writeKeeperInfo(paths.info, previous);
      else rmSync(paths.info, { force: true });
    }
    throw error;
  }
  checkEmpty();
  // A keeper that was replaced (it hung, or keeper.json was removed) can no longer be reached:
  // it closes its servers now rather than when they idle out.
  const ownershipCheckMs = options.ownershipCheckMs ?? KEEPER_OWNERSHIP_CHECK_MS;
  const checkOwnership = (): void => {
    if (stillOurs(paths, token)) ownershipTimer = clock.setTimeout(checkOwnership, ownershipCheckMs);
    else void stop("replaced: keeper.json is no longer this keeper's");
  };
  if (ownershipCheckMs > 0) ownershipTimer = clock.setTimeout(checkOwnership, ownershipCheckMs);
  log.debug(`keeper ${process.pid}: version ${version}, serving ${paths.socket}`);
  return { pid: process.pid, startedAt, done, stop: () => stop("stopped") };
}

function stillOurs(paths: KeeperPaths, token: string): boolean {
  try {
    return readKeeperInfo(paths.info)?.token === token;
  } catch {
    return false;
  }
}
