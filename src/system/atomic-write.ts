import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomHex } from "./light-crypto.ts";

/**
 * Writes `data` to `path` whole or not at all: a fresh temporary file in the same folder (created
 * with O_EXCL, so a name planted there is never written through), flushed to disk, then renamed
 * over the old one. A link at `path` is replaced, not followed. The file gets `mode` as the umask
 * leaves it, or exactly `mode` with `exactMode` (a file put back as it was). `flush: false` skips
 * the flush where a crash's cut file is found anyway (a checkpoint's blob is checked against its
 * hash) or was never flushed before (a rewound file): it costs about half a millisecond a file.
 * On a failure the temporary file is gone and the error is the system's, for the caller to word.
 */
export function writeAtomically(path: string, data: string | Uint8Array, mode: number, options: { exactMode?: boolean; flush?: boolean } = {}): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
  try {
    const fd = openSync(temporary, "wx", options.exactMode ? 0o600 : mode);
    try {
      writeFileSync(fd, data);
      // After the write: writing takes the setuid and setgid bits off a file (unless done as root).
      if (options.exactMode) fchmodSync(fd, mode);
      if (options.flush !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {}
    throw error;
  }
}
