import { chmodSync, lstatSync, mkdirSync, type Stats } from "node:fs";

/**
 * The keeper's folder (`$CAT_CODE_HOME/run/`) and the files in it are how a command proves who it is
 * to the keeper (the token in `keeper.json`) and how nobody else reaches it (the socket): so the
 * folder must be the user's own and closed to everyone else. A folder of ours that is merely too
 * open is tightened, as the credentials store does; anything owned by someone else, or a file of
 * the keeper's that others may read or write, is refused with what to do.
 */

const FOLDER_MODE = 0o700;

/** Why the keeper cannot live in its folder: the message names the path and the fix. */
export class KeeperFolderError extends Error {
  override readonly name = "KeeperFolderError";
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** Creates the folder (0700) or checks the one there; throws KeeperFolderError when it is not safe. */
export function prepareKeeperFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  } catch (error) {
    throw new KeeperFolderError(`cannot create ${folder}: ${(error as Error).message}`, folder);
  }
  checkKeeperFolder(folder);
}

/** Checks the folder prepareKeeperFolder made or found (one removed since, by another process: nothing to trust yet). */
function checkKeeperFolder(folder: string): void {
  const stats = statOf(folder);
  if (!stats) return;
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new KeeperFolderError(`${folder} is not a folder; remove it so cat-code can create its own`, folder);
  }
  if (!ownedByUser(stats)) {
    throw new KeeperFolderError(`${folder} belongs to another user (uid ${stats.uid}); remove it, or set CAT_CODE_HOME to a folder of yours`, folder);
  }
  if ((stats.mode & 0o077) === 0) return;
  try {
    chmodSync(folder, FOLDER_MODE);
  } catch (error) {
    throw new KeeperFolderError(`${folder} is open to other users and cannot be made private (${(error as Error).message}); run: chmod 700 ${folder}`, folder);
  }
}

/**
 * A file of the keeper's (its socket, `keeper.json`) must be the user's and closed to group and
 * others: one that is not was not made by a keeper of ours, and is refused (never trusted, never
 * tightened: someone else may hold it open). A missing file is fine.
 */
export function checkKeeperFile(path: string): void {
  const stats = statOf(path);
  if (!stats) return;
  if (stats.isSymbolicLink()) throw new KeeperFolderError(`${path} is a symlink; remove it`, path);
  if (!ownedByUser(stats)) throw new KeeperFolderError(`${path} belongs to another user (uid ${stats.uid}); remove it`, path);
  if ((stats.mode & 0o077) !== 0) {
    throw new KeeperFolderError(`${path} is open to other users (mode ${(stats.mode & 0o777).toString(8)}); remove it (cat-code mcp keeper stop, then rm ${path})`, path);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new KeeperFolderError(`cannot check ${path}: ${(error as Error).message}`, path);
  }
}

function ownedByUser(stats: Stats): boolean {
  // No uid to compare on Windows (the keeper is not used there).
  return typeof process.getuid !== "function" || stats.uid === process.getuid();
}
