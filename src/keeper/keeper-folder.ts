import { chmodSync, closeSync, constants, fchmodSync, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, unlinkSync, type Stats } from "node:fs";

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

/**
 * Opens the keeper's log (`keeper.log`) for writing, empty, as a file of the user's own: never
 * through a symlink (O_NOFOLLOW), never into a FIFO (O_NONBLOCK fails at once), never someone
 * else's or a second name of another file (truncated only after fstat says so). Whatever else sits
 * at the path (left while the folder was open to others, see prepareKeeperFolder) is removed first:
 * the folder is ours, and the log is cut at every start anyway. Throws KeeperFolderError.
 */
export function openKeeperLog(path: string): number {
  const found = statOf(path);
  if (found && (!found.isFile() || !ownedByUser(found) || found.nlink !== 1)) {
    try {
      unlinkSync(path);
    } catch (error) {
      throw new KeeperFolderError(`${path} is not the keeper's own log and cannot be removed (${(error as Error).message}); remove it`, path);
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    throw new KeeperFolderError(`cannot open ${path} (${(error as Error).message}); remove it`, path);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || !ownedByUser(stats) || stats.nlink !== 1) throw new KeeperFolderError(`${path} changed while it was opened; remove it`, path);
    if ((stats.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    ftruncateSync(fd, 0);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error instanceof KeeperFolderError ? error : new KeeperFolderError(`cannot prepare ${path}: ${(error as Error).message}`, path);
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
