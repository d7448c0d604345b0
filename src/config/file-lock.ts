import { closeSync, linkSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { ConfigError } from "./config-error.ts";
import { readConfigText } from "./config-file-text.ts";
import { randomHex } from "../system/light-crypto.ts";
import { processAlive } from "../system/process-alive.ts";

/**
 * An exclusive lock on a file, `<file>.lock`, created with O_EXCL and holding its owner's token
 * (`<pid> <time> <random>`), so that processes changing the same config take turns.
 */

/**
 * A lock older than this is left over from a writer that died: writes hold it for milliseconds, and
 * work that waits on the network under a lock (a token refresh) must end well within it.
 */
export const STALE_LOCK_MS = 10_000;

/**
 * Takes the lock, waiting while others hold it. The wait is bounded per holder, not in total: ten
 * writers queued on a loaded machine can together take longer than any one of them may, and giving
 * up then would lose a change that was never in conflict. The pause between tries grows, so the
 * waiters do not take the CPU from the one writer they wait for.
 */
export async function withLock<T>(target: string, shownPath: string, timeoutMs: number, body: () => T | Promise<T>): Promise<T> {
  const lockPath = `${target}.lock`;
  const token = lockToken();
  let holder: string | undefined;
  let deadline = Date.now() + timeoutMs;
  let pause = 5;
  for (;;) {
    try {
      if (tryLock(lockPath, token)) break;
    } catch (error) {
      throw new ConfigError(`cannot lock ${shownPath} (${lockPath}): ${(error as Error).message}`, "unwritable-file", shownPath);
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
    return await body();
  } finally {
    releaseLock(lockPath, token);
  }
}

/** A new owner's token: `<pid> <time> <random>`. */
export function lockToken(): string {
  return `${process.pid} ${Date.now()} ${randomHex(4)}`;
}

/**
 * Creates the lock holding `token` (O_EXCL, 0600): false when another holds it; any other failure
 * throws the system's error.
 */
export function tryLock(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The token of a lock left by a process that is gone, or held far longer than any write takes;
 * undefined for a live lock. A dead owner is confirmed by reading the lock again after the check:
 * an owner that released its lock and then exited leaves either no lock or someone else's, so its
 * token still in place means it died holding it. (Judging by inode, as before, could take a fresh
 * lock for the stale one: a file created just after another is deleted often gets its inode.)
 */
export function staleLockToken(lockPath: string): string | undefined {
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
  return processAlive(pid);
}

/**
 * Moves the stale lock aside, then deletes it. Two waiters may judge the same lock stale; when the
 * first has already broken it and taken a fresh one, the second's rename catches that fresh lock:
 * its token tells, and the lock is put back.
 */
export function breakLock(lockPath: string, staleToken: string): void {
  const aside = `${lockPath}.stale-${randomHex(4)}`;
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

export function releaseLock(lockPath: string, token: string): void {
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
