import { chmodSync, mkdirSync, openSync, readFileSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { catCodeHome } from "../config/app-home.ts";
import { randomHex, sameSecret } from "../system/light-crypto.ts";

/** Where `mcp serve --http` keeps its bearer token: the app home, readable by the user only. */
export function serveTokenPath(home = catCodeHome()): string {
  return join(home, "serve-token");
}

/** A token as the file holds it: 64 hex digits (32 random bytes). */
const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

/**
 * The bearer token HTTP clients of `mcp serve` must send: the stored one, so a client's config keeps
 * working across restarts, or a new one written 0600 (`created`: the caller prints it, once).
 */
export function loadOrCreateServeToken(path = serveTokenPath()): { token: string; created: boolean } {
  try {
    const stored = readFileSync(path, "utf8").trim();
    if (TOKEN_SHAPE.test(stored)) {
      // A file loosened by hand (a copy, a umask) is tightened again: the token is a password.
      chmodSync(path, 0o600);
      return { token: stored, created: false };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomHex(32);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  // Created 0600 before a byte is written: never readable by others, not even for a moment.
  const fd = openSync(path, "w", 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o600);
  return { token, created: true };
}

/** Whether an `Authorization` header carries `token`, compared in constant time. */
export function carriesToken(authorization: string | null, token: string): boolean {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match !== null && match !== undefined && sameSecret(match[1] as string, token);
}
