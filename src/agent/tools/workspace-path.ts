import { isAbsolute, relative, resolve } from "node:path";

/**
 * Tools take paths as the model writes them: absolute, or relative to the session's working
 * directory (never to wherever the process happens to be).
 */
export function resolveInWorkspace(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** A path as the model should see it in results: relative when it lies inside the workspace. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}
