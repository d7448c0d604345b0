import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { writeAtomically } from "../../system/atomic-write.ts";
import { sha256Hex } from "../../system/light-crypto.ts";

/** What a file is put back to: its bytes and mode, or null for a file that did not exist. */
export type RestoreTarget = { bytes: Uint8Array; mode?: number } | null;

export type FileRestore =
  /** `previous` is the sha256 of what was there (null: nothing), to compare with what cat-code wrote. */
  | { outcome: "restored" | "removed" | "unchanged"; previous: string | null }
  | { outcome: "skipped"; reason: string };

/**
 * Puts one file back as a checkpoint kept it. The path comes from the model, and the folder may have
 * changed since: a symbolic link planted in its place (or in place of its folder) is never followed,
 * and the new content is written to a fresh file in the same folder and renamed over the old one,
 * so no write lands anywhere but at `path` itself.
 */
export async function restoreFile(path: string, target: RestoreTarget): Promise<FileRestore> {
  const folder = dirname(path);
  try {
    const folderState = await realFolder(folder);
    if (folderState === "link") return { outcome: "skipped", reason: "a folder on its path is now a symbolic link; not followed" };
    if (folderState === "missing") {
      if (target === null) return { outcome: "unchanged", previous: null };
      await mkdir(folder, { recursive: true });
      if ((await realFolder(folder)) !== "same") return { outcome: "skipped", reason: "its folder could not be made again safely" };
    }
    const current = await currentFile(path);
    if ("reason" in current) return { outcome: "skipped", reason: current.reason };
    const previous = current.bytes === null ? null : sha256Hex(current.bytes);
    if (target === null) {
      if (current.bytes === null) return { outcome: "unchanged", previous };
      await unlink(path);
      return { outcome: "removed", previous };
    }
    if (previous === sha256Hex(target.bytes) && (target.mode === undefined || target.mode === current.mode)) return { outcome: "unchanged", previous };
    // Its mode exactly as kept (the umask must not take bits off a file put back as it was); not
    // flushed, as the tools' own writes are not.
    writeAtomically(path, target.bytes, target.mode ?? 0o644, { exactMode: true, flush: false });
    return { outcome: "restored", previous };
  } catch (error) {
    return { outcome: "skipped", reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

/** "same" when the folder's real path is its path: no link anywhere on the way. */
async function realFolder(folder: string): Promise<"same" | "link" | "missing"> {
  try {
    return (await realpath(folder)) === folder ? "same" : "link";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
}

async function currentFile(path: string): Promise<{ bytes: Uint8Array | null; mode?: number } | { reason: string }> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return { reason: "it is now a symbolic link; not followed" };
    if (!info.isFile()) return { reason: "it is no longer a regular file" };
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      return { bytes: await handle.readFile(), mode: (await handle.stat()).mode & 0o7777 };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { bytes: null };
    throw error;
  }
}
