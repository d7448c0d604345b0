import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { resolveInWorkspace } from "./workspace-path.ts";

/**
 * True when `path` (as the model wrote it) lies inside the project folder once symlinks are
 * resolved: a read-only built-in runs without asking only there. A link inside the project that
 * points at ~/.ssh is outside; a path that does not exist yet is judged by its nearest existing
 * parent, so `../../etc/x` cannot pass for inside.
 */
export async function isInsideProject(cwd: string, path: string): Promise<boolean> {
  return (await projectRelativePath(cwd, path)) !== undefined;
}

/** Where `path` really is inside the project (symlinks resolved), relative to it; undefined outside it. */
export async function projectRelativePath(cwd: string, path: string): Promise<string | undefined> {
  const [root, target] = await Promise.all([realPathOrNearest(cwd), realPathOrNearest(resolveInWorkspace(cwd, path))]);
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel)) ? rel : undefined;
}

async function realPathOrNearest(path: string): Promise<string> {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      if (dirname(current) === current) return path;
      missing.push(basename(current));
    }
  }
}

/**
 * The permission rule of the read-only built-ins: ask when the path they would read lies outside
 * the project (and outside `alsoReadable`: the session's saved tool outputs, which the model was
 * pointed to). An input without a usable path fails before it reads anything, so it needs no question.
 */
export async function outsideProject(cwd: string, path: unknown, alsoReadable?: () => string | undefined): Promise<boolean> {
  if (typeof path !== "string" || path === "") return false;
  if (await isInsideProject(cwd, path)) return false;
  const folder = alsoReadable?.();
  return folder === undefined || !(await isInsideProject(folder, resolveInWorkspace(cwd, path)));
}
