import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The absolute glob patterns a path rule's specifier stands for, as Claude Code reads them:
 * `//abs/path` is absolute, `~/path` is in the home folder, `/path` and `path/with/slash` are in the
 * project (the working folder), and a bare name (`.env`, `*.pem`) matches at any depth, as in
 * .gitignore. A pattern without a final `**` also covers everything under it when it is a folder.
 */
export function resolvePathPattern(pattern: string, cwd: string): string[] {
  let absolute: string;
  if (pattern.startsWith("//")) absolute = pattern.slice(1);
  else if (pattern.startsWith("~/")) absolute = `${escapeGlob(homedir())}/${pattern.slice(2)}`;
  else if (pattern.startsWith("/")) absolute = `${escapeGlob(cwd)}${pattern}`;
  else if (pattern.replace(/\/+$/, "").includes("/")) absolute = `${escapeGlob(cwd)}/${pattern.replace(/^\.\//, "")}`;
  else absolute = `**/${pattern}`;
  if (absolute.endsWith("/")) absolute += "**";
  return absolute.endsWith("**") ? [absolute] : [absolute, `${absolute}/**`];
}

/**
 * Whether a call's path matches. The path counts both as written (resolved against `cwd`) and as
 * its real location: a symlink inside `src/` pointing at `~/.ssh` must not pass as `src/**`. So an
 * allow rule needs both to match (`all`), a deny rule either (`any`).
 */
export function pathRuleMatches(patterns: string[], path: string | undefined, cwd: string, mode: "all" | "any"): boolean {
  if (path === undefined) return false;
  const lexical = resolve(cwd, path.startsWith("~/") ? join(homedir(), path.slice(2)) : path);
  const candidates = [...new Set([lexical, realLocation(lexical)])];
  const globs = patterns.map((pattern) => new Bun.Glob(pattern));
  const matches = (candidate: string) => globs.some((glob) => glob.match(candidate));
  return mode === "all" ? candidates.every(matches) : candidates.some(matches);
}

/** The real path of `path`, or of its nearest existing parent with the rest appended (a new file). */
function realLocation(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realLocation(parent), basename(path));
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}\\]/g, "\\$&");
}
