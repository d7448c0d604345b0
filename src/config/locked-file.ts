import { lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "./config-error.ts";
import { readConfigText, withBom } from "./config-file-text.ts";
import { withLock } from "./file-lock.ts";
import { writeAtomically } from "../system/atomic-write.ts";

export interface UpdateOptions {
  /** Permissions of a file created by this update; an existing file keeps its own. */
  mode?: number;
  /** How long one other writer may hold the lock before this one gives up. */
  lockTimeoutMs?: number;
}

/**
 * Read-modify-write of one file under an exclusive lock (`<file>.lock`, created with O_EXCL), so two
 * processes editing the same config at once both keep their change. `edit` gets the current text
 * (undefined when there is no file) and returns the new text, or undefined to write nothing; it may
 * throw, and then nothing is written. It may be async (a refresh asks the network under the lock):
 * it must then end well within STALE_LOCK_MS, or another process takes the lock as left over. The
 * write is atomic: a temporary file in the same folder, flushed, then renamed over the old one. The folder is created when missing. A symlinked file is
 * written through to its target, so the link survives; a link to nothing is refused rather than
 * replaced. The file is read as `readConfigText` reads it (a regular file, bounded); a byte-order
 * mark is kept.
 */
export async function updateFile(
  path: string,
  edit: (current: string | undefined) => string | undefined | Promise<string | undefined>,
  options: UpdateOptions = {},
): Promise<void> {
  const target = writeTarget(path);
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw new ConfigError(`cannot create the folder of ${path}: ${(error as Error).message}`, "unwritable-file", path);
  }
  await withLock(target, path, options.lockTimeoutMs ?? 10_000, async () => {
    const read = readConfigText(target);
    const current = read?.text;
    const next = await edit(current);
    if (next === undefined || next === current) return;
    const mode = read === undefined ? (options.mode ?? 0o644) : statSync(target).mode & 0o777;
    writeConfigText(target, withBom(next, read?.bom ?? false), mode, path);
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

function writeConfigText(target: string, text: string, mode: number, shownPath: string): void {
  try {
    writeAtomically(target, text, mode);
  } catch (error) {
    throw new ConfigError(`cannot write ${shownPath}: ${(error as Error).message}`, "unwritable-file", shownPath);
  }
}
