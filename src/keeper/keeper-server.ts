import { chmodSync, existsSync, lstatSync, unlinkSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { log } from "../log.ts";
import { EraMemory } from "../mcp/client/era-memory.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import { checkKeeperFile, KeeperFolderError, prepareKeeperFolder } from "./keeper-folder.ts";
import { newKeeperToken, removeIfOurs, writeKeeperInfo } from "./keeper-info.ts";
import { MAX_SOCKET_PATH_BYTES, type KeeperPaths } from "./keeper-paths.ts";
import { KEEPER_PROTOCOL, MAX_KEEPER_LINE_BYTES } from "./keeper-protocol.ts";
import { KeeperSession } from "./keeper-session.ts";
import { WarmConnections, type WarmConnectionsOptions } from "./warm-connections.ts";

/** A keeper that holds no connection and serves no command exits this long after the last one went. */
export const KEEPER_EMPTY_GRACE_MS = 30_000;

export interface KeeperOptions {
  paths: KeeperPaths;
  version: string;
  clock?: Clock;
  emptyGraceMs?: number;
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
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH_BYTES) {
    throw new KeeperFolderError(`${paths.socket} is too long for a socket path (at most ${MAX_SOCKET_PATH_BYTES} bytes); set CAT_CODE_HOME to a shorter folder`, paths.socket);
  }
  prepareKeeperFolder(paths.folder);
  checkKeeperFile(paths.socket);
  checkKeeperFile(paths.info);
  if (await answers(paths.socket)) throw new KeeperFolderError(`another keeper is running on ${paths.socket}; stop it first: cat-code mcp keeper stop`, paths.socket);
  removeStale(paths.socket);

  const token = newKeeperToken();
  const startedAt = Date.now();
  const sessions = new Set<KeeperSession>();
  let emptyTimer: ClockTimer | undefined;
  let stopping: Promise<void> | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));

  const checkEmpty = (): void => {
    const empty = warm.size === 0 && sessions.size === 0;
    if (!empty && emptyTimer) clock.clearTimeout(emptyTimer);
    if (!empty) emptyTimer = undefined;
    else if (!emptyTimer && !stopping) emptyTimer = clock.setTimeout(() => void stop("empty"), emptyGraceMs);
  };
  const warm = new WarmConnections({ version, clock, eraMemory: new EraMemory(), ...options.warm, onClosed: () => checkEmpty() });
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log.debug(`keeper ${process.pid}: stopping (${why})`);
      if (emptyTimer) clock.clearTimeout(emptyTimer);
      // Closing unlinks the socket's path: not when a newer keeper has bound it since (this one was hung).
      if (inodeOf(paths.socket) === socketInode) server.close();
      for (const session of sessions) session.end();
      await warm.closeAll();
      removeIfOurs(paths, token);
      finished();
    })();
    return stopping;
  };
  const host = { token, warm, maxLineBytes: options.maxLineBytes ?? MAX_KEEPER_LINE_BYTES, identity: () => ({ version, pid: process.pid, startedAt }), stop: () => void stop("asked to stop") };

  const server: Server = createServer((socket) => {
    if (stopping) return void socket.destroy();
    const session = new KeeperSession(socket, host, () => {
      sessions.delete(session);
      checkEmpty();
    });
    sessions.add(session);
    checkEmpty();
  });
  writeKeeperInfo(paths.info, { pid: process.pid, version, protocol: KEEPER_PROTOCOL, token, startedAt });
  await listenPrivately(server, paths.socket);
  const socketInode = inodeOf(paths.socket);
  checkEmpty();
  log.debug(`keeper ${process.pid}: version ${version}, serving ${paths.socket}`);
  return { pid: process.pid, startedAt, done, stop: () => stop("stopped") };
}

/** Listens with a umask that leaves the socket 0600 from the start (the 0700 folder guards it too). */
async function listenPrivately(server: Server, path: string): Promise<void> {
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
}

/** Whether something accepts connections on the socket (a live keeper: never unlink its socket). */
function answers(path: string): Promise<boolean> {
  if (!existsSync(path)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function inodeOf(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new KeeperFolderError(`cannot remove the stale socket ${path}: ${(error as Error).message}`, path);
  }
}
