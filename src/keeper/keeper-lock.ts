import { breakLock, lockToken, releaseLock, staleLockToken, tryLock } from "../config/file-lock.ts";
import type { Clock } from "../system/clock.ts";
import { pause } from "./keeper-pause.ts";

/**
 * `keeper.lock`, held while one command starts a keeper, so that ten commands starting at once start
 * one keeper: the others wait, then find it. Created with O_EXCL and holding `<pid> <time> <random>`,
 * as config writes lock their files (file-lock.ts): a lock whose owner died, or that is older than
 * 10 s, is broken. Async, so a waiting command keeps its event loop.
 */
export async function withKeeperLock<T>(lockPath: string, clock: Clock, waitMs: number, body: () => Promise<T>): Promise<T> {
  const token = lockToken();
  const deadline = clock.now() + waitMs;
  let wait = 5;
  while (!tryCreate(lockPath, token)) {
    const stale = staleLockToken(lockPath);
    if (stale !== undefined) {
      breakLock(lockPath, stale);
      continue;
    }
    if (clock.now() >= deadline) throw new Error(`${lockPath} is held by another command starting the keeper for over ${waitMs} ms`);
    await pause(clock, wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await body();
  } finally {
    releaseLock(lockPath, token);
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  try {
    return tryLock(lockPath, token);
  } catch (error) {
    throw new Error(`cannot create ${lockPath}: ${(error as Error).message}`);
  }
}
