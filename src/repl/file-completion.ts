import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ancestorLayers, isIgnored, layerOf } from "../agent/tools/project-walk.ts";
import type { CompletionSource } from "./completion.ts";

/** `@path` as the last word; a mention starts a word, so `me@example.com` is not one. */
const MENTION = /(?:^|\s)@(\S*)$/;

/**
 * Tab in an `@` word: the files and folders it could name, relative to the working directory (or
 * absolute), folders ending in `/` so the next Tab goes inside. Names starting with a dot only when
 * the typed name does, and what the project's .gitignore files ignore is left out. An `@server:`
 * word gets nothing from here when no file matches (the resource source answers it).
 */
export function fileCompletion(options: { cwd: string }): CompletionSource {
  return async (line) => {
    const match = MENTION.exec(line);
    if (!match) return undefined;
    const typed = match[1] as string;
    const slash = typed.lastIndexOf("/");
    const folder = typed.slice(0, slash + 1);
    const prefix = typed.slice(slash + 1);
    const dir = resolve(options.cwd, folder || ".");
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const layers = [...(await ancestorLayers(options.cwd, dir)), ...[await layerOf(dir)].filter((layer) => layer !== undefined)];
    const candidates: string[] = [];
    for (const entry of entries) {
      const { name } = entry;
      if (!name.startsWith(prefix) || /\s/.test(name)) continue;
      if (name.startsWith(".") && !prefix.startsWith(".")) continue;
      const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && (await isFolderLink(join(dir, name))));
      if (name === ".git" || isIgnored(layers, join(dir, name), isFolder)) continue;
      candidates.push(`@${folder}${name}${isFolder ? "/" : ""}`);
    }
    return [candidates.sort(), `@${typed}`];
  };
}

function isFolderLink(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}
