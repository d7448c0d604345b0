import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "./config-error.ts";

export interface UpdateOptions {
  /** Permissions of a file created by this update; an existing file keeps its own. */
  mode?: number;
  /** How long to wait for another writer's lock before giving up. */
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
 * written through to its target, so the link survives.
 */
export async function updateFile(
  path: string,
  edit: (current: string | undefined) => string | undefined,
  options: UpdateOptions = {},
): Promise<void> {
  const target = existsSync(path) ? realpathSync(path) : path;
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw new ConfigError(`cannot create the folder of ${path}: ${(error as Error).message}`, "unwritable-file", path);
  }
  await withLock(target, path, options.lockTimeoutMs ?? 10_000, () => {
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    const next = edit(current);
    if (next === undefined || next === current) return;
    const mode = current === undefined ? (options.mode ?? 0o644) : statSync(target).mode & 0o777;
    writeAtomically(target, next, mode, path);
  });
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

async function withLock(target: string, shownPath: string, timeoutMs: number, body: () => void): Promise<void> {
  const lockPath = `${target}.lock`;
  const token = `${process.pid} ${Date.now()} ${randomSuffix()}`;
  const deadline = Date.now() + timeoutMs;
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
    const stale = staleLockInode(lockPath);
    if (stale !== undefined) {
      breakLock(lockPath, stale);
      continue;
    }
    if (Date.now() > deadline) {
      throw new ConfigError(
        `another cat-code is changing ${shownPath} (lock file ${lockPath}); try again, or delete the lock file if no cat-code is running`,
        "locked",
        shownPath,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
  try {
    body();
  } finally {
    releaseLock(lockPath, token);
  }
}

/**
 * The inode of a lock left by a process that is gone, or held far longer than any write takes;
 * undefined for a live lock.
 */
function staleLockInode(lockPath: string): number | undefined {
  let content: string;
  let stat: { mtimeMs: number; ino: number };
  try {
    stat = statSync(lockPath);
    content = readFileSync(lockPath, "utf8");
  } catch {
    return undefined; // Released meanwhile: the next attempt will tell.
  }
  if (Date.now() - stat.mtimeMs > STALE_LOCK_MS) return stat.ino;
  const pid = Number(content.split(" ")[0]);
  // An empty lock is one being written this instant; only its age can make it stale.
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? stat.ino : undefined;
  }
}

/**
 * Moves the stale lock aside, then deletes it. Two waiters may judge the same lock stale; when the
 * first has already broken it and taken a fresh one, the second's rename catches that fresh lock:
 * the inode tells, and the lock is put back.
 */
function breakLock(lockPath: string, staleInode: number): void {
  const aside = `${lockPath}.stale-${randomSuffix()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  try {
    if (statSync(aside).ino !== staleInode) linkSync(aside, lockPath);
  } catch {}
  try {
    unlinkSync(aside);
  } catch {}
}

function releaseLock(lockPath: string, token: string): void {
  try {
    if (readFileSync(lockPath, "utf8") === token) unlinkSync(lockPath);
  } catch {}
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}
