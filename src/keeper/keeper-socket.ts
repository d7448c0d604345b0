import { chmodSync, existsSync, linkSync, unlinkSync } from "node:fs";
import { connect, type Server } from "node:net";
import { dirname } from "node:path";
import { randomHex } from "../system/light-crypto.ts";
import { KeeperFolderError } from "./keeper-folder.ts";
import { MAX_SOCKET_PATH_BYTES, privateSocketPath } from "./keeper-paths.ts";

/**
 * Puts the keeper's server on `path` without ever taking it from a live keeper. The server listens
 * on a name of its own in the same folder, which is then hard-linked to `path`: link() fails when
 * something is there, so of two keepers starting at once exactly one gets the name. A socket file
 * nobody answers on (a keeper that died) is removed first. Bun unlinks the name a server listened
 * on when it closes: that is the private name, so a keeper that stops late (it hung and was
 * replaced) never removes its successor's socket.
 */
export async function bindKeeperSocket(server: Server, path: string): Promise<void> {
  const own = privateSocketPath(dirname(path), `${process.pid}-${randomHex(3)}`);
  for (const candidate of [path, own]) {
    if (Buffer.byteLength(candidate) > MAX_SOCKET_PATH_BYTES) {
      throw new KeeperFolderError(`${candidate} is too long for a socket path (at most ${MAX_SOCKET_PATH_BYTES} bytes); set CAT_CODE_HOME to a shorter folder`, path);
    }
  }
  removeIfThere(own);
  await listenPrivately(server, own);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        linkSync(own, path);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 1) {
          throw new KeeperFolderError(`cannot put the keeper's socket at ${path}: ${(error as Error).message}`, path);
        }
      }
      if (await socketAnswers(path)) throw new KeeperFolderError(`another keeper is running on ${path}; stop it first: cat-code mcp keeper stop`, path);
      removeIfThere(path);
    }
  } finally {
    removeIfThere(own);
  }
}

/** Whether something accepts connections on the socket (a live keeper: its socket is never removed). */
export function socketAnswers(path: string): Promise<boolean> {
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

/**
 * Listens on the private name, then makes it 0600 before it is linked into place: the socket is
 * never reachable at keeper.sock with another mode, and the 0700 folder keeps everyone else from
 * the private name meanwhile. (Not a umask: it is process-wide, and a listen is asynchronous.)
 */
async function listenPrivately(server: Server, path: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    throw new KeeperFolderError(`cannot listen on ${path}: ${(error as Error).message}`, path);
  }
  chmodSync(path, 0o600);
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new KeeperFolderError(`cannot remove ${path}: ${(error as Error).message}`, path);
  }
}
