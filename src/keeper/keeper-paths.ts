import { join } from "node:path";
import { catCodeHome } from "../mcp/config/load-config.ts";

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
