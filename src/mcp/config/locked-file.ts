import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigError } from "./config-error.ts";
import { readConfigText, withBom } from "./config-file-text.ts";

export interface UpdateOptions {
  /** Permissions of a file created by this update; an existing file keeps its own. */
  mode?: number;
  /** How long one other writer may hold the lock before this one gives up. */
  lockTimeoutMs?: number;
}

/** A lock older than this is left over from a writer that died: writes hold it for milliseconds. */
const STALE_LOCK_MS = 10_000;

/**
 * Read-modify-write of one file under an exclusive lock (`<file>.lock`, created with O_EXCL), so two
 * processes editing the same config at once both keep their change. `edit` gets the current text
 * (undefined when there is no file) and returns the new text, or undefined to write nothing; it may
 * throw, and then nothing is written. The write is atomic: a temporary file in the same folder,
 * flushed, then renamed over the old one. The folder is created when missing. A symlinked file is
 * written through to its target, so the link survives; a link to nothing is refused rather than
 * replaced. The file is read as `readConfigText` reads it (a regular file, bounded); a byte-order
 * mark is kept.
 */
export async function updateFile(
  path: string,
  edit: (current: string | undefined) => string | undefined,
  options: UpdateOptions = {},
): Promise<void> {
  const target = writeTarget(path);
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw new ConfigError(`cannot create the folder of ${path}: ${(error as Error).message}`, "unwritable-file", path);
  }
  await withLock(target, path, options.lockTimeoutMs ?? 10_000, () => {
    const read = readConfigText(target);
    const current = read?.text;
    const next = edit(current);
    if (next === undefined || next === current) return;
    const mode = read === undefined ? (options.mode ?? 0o644) : statSync(target).mode & 0o777;
    writeAtomically(target, withBom(next, read?.bom ?? false), mode, path);
  });
}

/** The file to write: the path itself, or the file its symlink points to. */
function writeTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new ConfigError(`cannot use ${path}: ${(error as Error).message}`, "unwritable-file", path);
  }
  let link: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
    link = resolve(dirname(path), readlinkSync(path));
  } catch {
    return path; // Nothing there: a new file.
  }
  throw new ConfigError(
    `${path} is a symlink to ${link}, which does not exist; create that file or remove the link; nothing was written`,
    "unwritable-file",
    path,
  );
}

function writeAtomically(target: string, text: string, mode: number, shownPath: string): void {
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomSuffix()}.tmp`);
  try {
    const fd = openSync(temporary, "wx", mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {}
    throw new ConfigError(`cannot write ${shownPath}: ${(error as Error).message}`, "unwritable-file", shownPath);
  }
}

/**
 * Takes the lock, waiting while others hold it. The wait is bounded per holder, not in total: ten
 * writers queued on a loaded machine can together take longer than any one of them may, and giving
 * up then would lose a change that was never in conflict. The pause between tries grows, so the
 * waiters do not take the CPU from the one writer they wait for.
 */
async function withLock(target: string, shownPath: string, timeoutMs: number, body: () => void): Promise<void> {
  const lockPath = `${target}.lock`;
  const token = `${process.pid} ${Date.now()} ${randomSuffix()}`;
  let holder: string | undefined;
  let deadline = Date.now() + timeoutMs;
  let pause = 5;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new ConfigError(`cannot lock ${shownPath} (${lockPath}): ${(error as Error).message}`, "unwritable-file", shownPath);
      }
    }
    const stale = staleLockToken(lockPath);
    if (stale !== undefined) {
      breakLock(lockPath, stale);
      continue;
    }
    const seen = lockHolder(lockPath);
    if (seen !== holder) {
      holder = seen;
      deadline = Date.now() + timeoutMs;
    }
    if (Date.now() > deadline) {
      throw new ConfigError(
        `another cat-code is changing ${shownPath} (lock file ${lockPath}); try again, or delete the lock file if no cat-code is running`,
        "locked",
        shownPath,
      );
    }
    await new Promise((done) => setTimeout(done, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, 100);
  }
  try {
    body();
  } finally {
    releaseLock(lockPath, token);
  }
}

/**
 * The token of a lock left by a process that is gone, or held far longer than any write takes;
 * undefined for a live lock. A dead owner is confirmed by reading the lock again after the check:
 * an owner that released its lock and then exited leaves either no lock or someone else's, so its
 * token still in place means it died holding it. (Judging by inode, as before, could take a fresh
 * lock for the stale one: a file created just after another is deleted often gets its inode.)
 */
function staleLockToken(lockPath: string): string | undefined {
  let token: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(lockPath).mtimeMs;
    token = readToken(lockPath);
  } catch {
    return undefined; // Released meanwhile: the next attempt will tell.
  }
  // An empty lock is one being written this instant; only its age can make it stale.
  if (token === "") return Date.now() - mtimeMs > STALE_LOCK_MS ? token : undefined;
  if (Date.now() - mtimeMs <= STALE_LOCK_MS && ownerAlive(token)) return undefined;
  return lockHolder(lockPath) === token ? token : undefined;
}

function ownerAlive(token: string): boolean {
  const pid = Number(token.split(" ")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Moves the stale lock aside, then deletes it. Two waiters may judge the same lock stale; when the
 * first has already broken it and taken a fresh one, the second's rename catches that fresh lock:
 * its token tells, and the lock is put back.
 */
function breakLock(lockPath: string, staleToken: string): void {
  const aside = `${lockPath}.stale-${randomSuffix()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  try {
    if (readToken(aside) !== staleToken) linkSync(aside, lockPath);
  } catch {}
  try {
    unlinkSync(aside);
  } catch {}
}

/** Who holds the lock now: its token, or undefined when it is free or being written. */
function lockHolder(lockPath: string): string | undefined {
  try {
    return readToken(lockPath) || undefined;
  } catch {
    return undefined;
  }
}

function releaseLock(lockPath: string, token: string): void {
  try {
    if (readToken(lockPath) === token) unlinkSync(lockPath);
  } catch {}
}

/**
 * A lock's token. Read like a config file (a regular file, bounded): a `.mcp.json.lock` can come
 * with a cloned project too, and a FIFO there must not hang the writer. Throws when unreadable.
 */
function readToken(lockPath: string): string {
  return readConfigText(lockPath, 1024)?.text ?? "";
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}
