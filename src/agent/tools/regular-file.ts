import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";

/** One read() at a time, so a cancelled turn stops within a chunk. */
const CHUNK_BYTES = 256 * 1024;

/** Why a read failed: `missing` lets a writer tell a new file from an unreadable one. */
export type FileReadFailure = "cancelled" | "missing" | "too-large" | "refused" | "error";

export type FileRead = { ok: true; bytes: Uint8Array } | { ok: false; failure: FileReadFailure; reason: string };

/**
 * Reads a regular file, at most `maxBytes` of it, and nothing else. `stat().size` is 0 for
 * /dev/zero and a read of a FIFO blocks forever, so anything but a regular file (a symlink to one
 * is fine) is refused before it is opened; the open is non-blocking and checked again with fstat,
 * in case the path was swapped in between. `shown` is the path as the model sees it, for messages.
 */
export async function readRegularFile(file: string, shown: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<FileRead> {
  const { maxBytes, signal } = options;
  if (signal?.aborted) return cancelled();
  try {
    const refused = refusal(await stat(file), shown, maxBytes);
    if (refused) return refused;
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      const refusedNow = refusal(info, shown, maxBytes);
      if (refusedNow) return refusedNow;
      // The size may grow while we read; the cap holds whatever the file does.
      const bytes = new Uint8Array(Math.min(info.size, maxBytes));
      let filled = 0;
      while (filled < bytes.length) {
        if (signal?.aborted) return cancelled();
        const { bytesRead } = await handle.read(bytes, filled, Math.min(CHUNK_BYTES, bytes.length - filled), filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (signal?.aborted) return cancelled();
      return { ok: true, bytes: bytes.subarray(0, filled) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException)?.code === "ENOENT";
    return { ok: false, failure: missing ? "missing" : "error", reason: describeFsError(shown, error) };
  }
}

function refusal(info: { isFile(): boolean; isDirectory(): boolean; size: number }, shown: string, maxBytes: number): FileRead | undefined {
  const refused = (reason: string): FileRead => ({ ok: false, failure: "refused", reason });
  if (info.isDirectory()) return refused(`${shown} is a directory; use glob to list its files`);
  if (!info.isFile()) return refused(`${shown} is not a regular file (${kindOf(info)}); only regular files can be read`);
  if (info.size > maxBytes) {
    return { ok: false, failure: "too-large", reason: `${shown} is ${info.size} bytes, too large to read; use grep, or bash with head or sed` };
  }
  return undefined;
}

function kindOf(info: object): string {
  const is = info as Record<string, () => boolean>;
  if (is.isFIFO?.()) return "a FIFO";
  if (is.isCharacterDevice?.()) return "a character device";
  if (is.isBlockDevice?.()) return "a block device";
  if (is.isSocket?.()) return "a socket";
  return "not a file";
}

function cancelled(): FileRead {
  return { ok: false, failure: "cancelled", reason: "cancelled by the user" };
}

/** An fs error as a sentence about the path, without the syscall noise. */
export function describeFsError(shown: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") return `${shown} does not exist`;
  if (code === "EACCES" || code === "EPERM") return `${shown}: permission denied`;
  if (code === "ENOTDIR") return `${shown}: a part of the path is not a directory`;
  if (code === "EISDIR") return `${shown} is a directory`;
  if (code === "ELOOP") return `${shown}: too many levels of symbolic links`;
  return `${shown}: ${(error as Error)?.message ?? String(error)}`;
}
