import { join } from "node:path";
import { catCodeHome } from "../config/app-home.ts";

/**
 * Where the connection keeper lives, all in `$CAT_CODE_HOME/run/` (a folder of mode 0700, owned by
 * the user: anything else there is refused, see keeper-folder.ts):
 * - `keeper.sock`: its Unix socket, mode 0600;
 * - `keeper.json`: `{ pid, version, protocol, token, startedAt }`, mode 0600: the token is what a
 *   command shows in `hello`, so only who can read this file can talk to the keeper;
 * - `keeper.lock`: held while one command starts a keeper, so two commands start only one;
 * - `keeper.log`: the keeper's own stderr (debug lines with CAT_CODE_DEBUG), cut at each start.
 */
export interface KeeperPaths {
  folder: string;
  socket: string;
  info: string;
  lock: string;
  log: string;
}

export function keeperPaths(env: Record<string, string | undefined> = process.env): KeeperPaths {
  const folder = join(catCodeHome(env), "run");
  return {
    folder,
    socket: join(folder, "keeper.sock"),
    info: join(folder, "keeper.json"),
    lock: join(folder, "keeper.lock"),
    log: join(folder, "keeper.log"),
  };
}

/** A Unix socket path longer than this cannot be bound (sun_path is 104 bytes on macOS, 108 on Linux). */
export const MAX_SOCKET_PATH_BYTES = 103;

/** The name a keeper first binds, before linking it to `socket` (see keeper-socket.ts): `tag` is `<pid>-<6 hex>`. */
export function privateSocketPath(folder: string, tag: string): string {
  return join(folder, `.${tag}.sock`);
}

/**
 * Why no keeper can bind a socket in this folder (a path too long: CAT_CODE_HOME is deep), or
 * undefined. Known before any keeper is started, so none is started to fail.
 */
export function socketPathProblem(paths: KeeperPaths): string | undefined {
  // The longest private name: a 7-digit pid (Linux's largest is 4194304).
  for (const path of [paths.socket, privateSocketPath(paths.folder, "9999999-ffffff")]) {
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
      return `${path} is too long for a socket path (at most ${MAX_SOCKET_PATH_BYTES} bytes); set CAT_CODE_HOME to a shorter folder`;
    }
  }
  return undefined;
}
