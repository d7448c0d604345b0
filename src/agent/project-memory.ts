import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The memory files read in each folder, in this order. */
export const MEMORY_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Bounds: a memory file is text for the model, and a cloned repository's file is hostile. */
export const MAX_MEMORY_FILE_BYTES = 40 * 1024;
export const MAX_MEMORY_TOTAL_BYTES = 120 * 1024;

export interface MemoryFile {
  path: string;
  text: string;
  /** The file's size on disk, in bytes. */
  bytes: number;
  /** True when only the start of the file was kept (over a bound). */
  cut: boolean;
}

export interface ProjectMemory {
  files: MemoryFile[];
  /** One line per file that could not be read or was left out; the program goes on without it. */
  warnings: string[];
  /** The enclosing git repository's top folder, when there is one. */
  gitRoot: string | undefined;
}

export interface ProjectMemoryOptions {
  cwd: string;
  /** cat-code's home folder ($CAT_CODE_HOME): its AGENTS.md is the user's own memory. */
  home: string;
  /** The user's home folder: where the walk up stops outside a git repository (default: os.homedir()). */
  userHome?: string;
  /**
   * Whose files count as the user's own (default: this process's uid and gid; none on Windows,
   * where nothing is checked). A project's memory file is read only when it and each folder from
   * it down to `cwd` belong to this user (or root) and no one else can write to them.
   */
  owner?: { uid: number; gid: number };
}

/**
 * The memory files, most general first: `$CAT_CODE_HOME/AGENTS.md`, then AGENTS.md and CLAUDE.md of
 * each folder from the top down to the working directory, so the closest (most specific) is read last.
 * The top is the git root. Outside a git repository it is the user's home folder when the working
 * directory is inside it, else the working directory alone: a folder above home or a shared one
 * (/tmp) may hold a file anyone could have put there. For the same reason a file another user
 * owns or could have written (in a folder they can write to, even below the git root: they could
 * plant `.git` too) is left out with a warning that says why.
 * Never throws: a file that cannot be read is a warning.
 */
export function loadProjectMemory(options: ProjectMemoryOptions): ProjectMemory {
  const cwd = resolve(options.cwd);
  const gitRoot = findGitRoot(cwd);
  const top = gitRoot ?? topWithoutGit(cwd, resolve(options.userHome ?? homedir()));
  const warnings: string[] = [];
  const files: MemoryFile[] = [];
  const seen = new Set<string>();
  let budget = MAX_MEMORY_TOTAL_BYTES;

  const owner = options.owner ?? processOwner();
  const folderStats = new Map<string, Stats | undefined>();
  const folderCheck = (folder: string) => {
    if (!folderStats.has(folder)) folderStats.set(folder, statOrUndefined(folder));
    return folderStats.get(folder);
  };
  const candidates = [{ path: join(options.home, "AGENTS.md"), within: undefined as string | undefined }];
  for (const folder of foldersDown(top, cwd)) for (const name of MEMORY_FILE_NAMES) candidates.push({ path: join(folder, name), within: top });

  for (const candidate of candidates) {
    // The user's own memory ($CAT_CODE_HOME) is theirs by definition; a project's is checked.
    const guard = candidate.within === undefined || !owner ? undefined : { owner, folders: foldersDown(dirname(candidate.path), cwd).map((f) => [f, folderCheck(f)] as const) };
    const read = readMemoryFile(candidate.path, candidate.within, Math.min(budget, MAX_MEMORY_FILE_BYTES), guard);
    if (read === undefined) continue;
    if ("warning" in read) {
      warnings.push(read.warning);
      continue;
    }
    // The same file reached twice (CAT_CODE_HOME inside the project, a link) is read once.
    if (seen.has(read.real)) continue;
    seen.add(read.real);
    if (budget <= 0) {
      warnings.push(`${candidate.path}: left out: the memory files already reach ${MAX_MEMORY_TOTAL_BYTES / 1024} KB in all`);
      continue;
    }
    budget -= Buffer.byteLength(read.file.text);
    files.push(read.file);
  }
  return { files, warnings, gitRoot };
}

/** The nearest folder at or above `cwd` holding `.git` (a folder, or a worktree's file). */
export function findGitRoot(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, ".git"))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

function topWithoutGit(cwd: string, userHome: string): string {
  return isInside(cwd, userHome) ? userHome : cwd;
}

/** `top`, then each folder below it down to `cwd` (only `cwd` when it is not under `top`). */
function foldersDown(top: string, cwd: string): string[] {
  if (!isInside(cwd, top)) return [cwd];
  const folders: string[] = [];
  for (let folder = cwd; ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (folder === top || dirname(folder) === folder) return folders;
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

type ReadResult = { file: MemoryFile; real: string } | { warning: string } | undefined;

/**
 * Reads at most `limit` bytes of a regular file; undefined when there is no file. A project's file
 * that is a link to outside the project is not read: a cloned repository could point AGENTS.md at a
 * private key, and the text would go to the model.
 */
function readMemoryFile(
  path: string,
  within: string | undefined,
  limit: number,
  guard: { owner: Owner; folders: ReadonlyArray<readonly [string, Stats | undefined]> } | undefined,
): ReadResult {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    return { warning: `${path}: could not be read (${reason(error)}); left out of the memory files` };
  }
  if (within !== undefined && !isInside(real, realOrSelf(within))) {
    return { warning: `${path}: left out: it links to ${real}, outside ${within}` };
  }
  let fd: number | undefined;
  try {
    // Non-blocking: opening a FIFO (which a cloned repository can ship as AGENTS.md) would otherwise
    // wait for a writer for ever; the check below then leaves it out.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    // Only a regular file: a FIFO or a device has no end, a folder has no text.
    if (!stat.isFile()) return { warning: `${path}: left out: not a regular file` };
    if (guard) {
      // The file as opened (fstat: no swap between check and read), then each folder down to cwd.
      const unsafe = whyNotOwn("it", stat, guard.owner) ?? guard.folders.map(([folder, folderStat]) => folderStat && whyNotOwn(folder, folderStat, guard.owner)).find(Boolean);
      if (unsafe) return { warning: `${path}: left out: ${unsafe}; another user could have written it` };
    }
    const buffer = Buffer.alloc(Math.max(0, Math.min(limit, stat.size)));
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    const cut = stat.size > length;
    // A streaming decode holds back a character cut in half instead of showing U+FFFD.
    const text = new TextDecoder("utf-8").decode(buffer.subarray(0, length), { stream: cut });
    return { file: { path, text, bytes: stat.size, cut }, real };
  } catch (error) {
    return { warning: `${path}: could not be read (${reason(error)}); left out of the memory files` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

type Owner = { uid: number; gid: number };

function processOwner(): Owner | undefined {
  return process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why another user could have written this file or folder, or undefined when only the user (or
 * root) could: owned by someone else, writable by everyone, or writable by a group that is not the
 * user's own (with the per-user groups most systems give, the user's umask 002 makes files
 * group-writable, and that group holds only them).
 */
function whyNotOwn(what: string, stat: Stats, owner: Owner): string | undefined {
  const mode = `mode ${(stat.mode & 0o777).toString(8).padStart(3, "0")}`;
  if (stat.uid !== owner.uid && stat.uid !== 0) return `${what} belongs to another user (uid ${stat.uid})`;
  if (stat.mode & 0o002) return `${what} is writable by every user (${mode})`;
  if (stat.mode & 0o020 && stat.gid !== owner.gid) return `${what} is writable by group ${stat.gid} (${mode})`;
  return undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === "ENOENT" || (error as { code?: string }).code === "ENOTDIR";
}

function reason(error: unknown): string {
  const code = (error as { code?: string }).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
