import { readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";
import { readRegularFile } from "./regular-file.ts";

const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** Directories nobody wants searched unless they ask for them by name. */
export const SKIPPED_DIRECTORIES = ["node_modules", ".git"];

export interface WalkOptions {
  /** The directory to walk, absolute. */
  root: string;
  /** The project folder: .gitignore files from here down to `root` apply too. */
  projectRoot: string;
  /** Include names starting with a dot. */
  hidden: boolean;
  /** Names in SKIPPED_DIRECTORIES that are walked anyway (the pattern names them). */
  unskipped?: string[];
  signal?: AbortSignal;
}

export interface IgnoreLayer {
  dir: string;
  rules: Ignore;
}

/**
 * The regular files under `root`, as paths relative to it, the way ripgrep picks them: what a
 * .gitignore (at any level) ignores is left out, and symlinks are not followed, so a link cannot
 * lead a search out of the project. Stops quietly when `signal` aborts; the caller checks it.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string> {
  const { root, hidden, signal } = options;
  const skipped = SKIPPED_DIRECTORIES.filter((name) => !options.unskipped?.includes(name));
  const stack: { dir: string; layers: IgnoreLayer[] }[] = [{ dir: root, layers: await ancestorLayers(options.projectRoot, root) }];
  while (stack.length > 0) {
    if (signal?.aborted) return;
    const { dir, layers: parentLayers } = stack.pop() as { dir: string; layers: IgnoreLayer[] };
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const own = await layerOf(dir);
    const layers = own ? [...parentLayers, own] : parentLayers;
    const subdirectories: string[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!hidden && entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.includes(entry.name) && !isIgnored(layers, path, true)) subdirectories.push(path);
      } else if (entry.isFile() && !isIgnored(layers, path, false)) {
        yield relative(root, path);
      }
    }
    // Pushed in reverse, so directories come out in name order.
    for (const sub of subdirectories.reverse()) stack.push({ dir: sub, layers });
  }
}

/** Git's rule: the deepest .gitignore that has a say about a path decides. */
export function isIgnored(layers: IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const { dir, rules } of layers) {
    const result = rules.test(relative(dir, path) + (isDirectory ? "/" : ""));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

export async function layerOf(dir: string): Promise<IgnoreLayer | undefined> {
  // A .gitignore is a project file: hostile, so read like one (a FIFO there must not hang the walk).
  const read = await readRegularFile(join(dir, ".gitignore"), ".gitignore", { maxBytes: MAX_GITIGNORE_BYTES });
  if (!read.ok) return undefined;
  return { dir, rules: ignore().add(new TextDecoder().decode(read.bytes)) };
}

/** The .gitignore files above `root` up to the project folder, when `root` lies inside it. */
export async function ancestorLayers(projectRoot: string, root: string): Promise<IgnoreLayer[]> {
  const rel = relative(projectRoot, root);
  if (rel === "" || rel.startsWith("..")) return [];
  const dirs: string[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === projectRoot || dirname(dir) === dir) break;
  }
  const layers = await Promise.all(dirs.map(layerOf));
  return layers.filter((layer): layer is IgnoreLayer => layer !== undefined);
}
