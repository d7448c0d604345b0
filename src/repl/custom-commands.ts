import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { catCodeHome, claudeHome } from "../config/app-home.ts";
import { findGitRoot } from "../agent/project-memory.ts";
import { readBoundedText } from "../system/front-matter-file.ts";
import { parseCommandFile, type CommandFile } from "./command-file.ts";

/** A command file past this is cut: it is a prompt, and a project's file is hostile input. */
export const MAX_COMMAND_FILE_BYTES = 64 * 1024;
/** Files read per folder tree, and how deep its subfolders go (`/a:b:c`). */
const MAX_FILES_PER_FOLDER = 200;
const MAX_DEPTH = 3;
/** What a name may hold: Claude Code's names are file names; anything else is skipped, never shown. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export interface CustomCommand extends CommandFile {
  /** `name`, or `folder:name` for a file in a subfolder. */
  name: string;
  /** Where it was read; a project's command is a project file (its allowed-tools are not applied). */
  scope: "user" | "project";
  path: string;
}

type Env = Record<string, string | undefined>;

/**
 * The folders commands come from, lowest precedence first: the user's (`~/.claude/commands`, then
 * `~/.cat-code/commands`), then the project's (`.claude/commands`, then `.cat-code/commands` at the
 * git root, or the working directory outside one). A later folder's command replaces an earlier
 * one of the same name. `~/.claude` is claudeHome (config/app-home.ts).
 */
export function commandFolders(cwd: string, env: Env = process.env): Array<{ folder: string; scope: CustomCommand["scope"] }> {
  const home = catCodeHome(env);
  const claude = claudeHome(env);
  const project = findGitRoot(cwd) ?? cwd;
  return [
    { folder: join(claude, "commands"), scope: "user" },
    { folder: join(home, "commands"), scope: "user" },
    { folder: join(project, ".claude", "commands"), scope: "project" },
    { folder: join(project, ".cat-code", "commands"), scope: "project" },
  ];
}

/**
 * Every custom command, by name (sorted), read at each call so a file added during the session
 * counts. Names taken by a built-in command are left out (`reserved`), and those of server prompts
 * (`mcp__…`): a project must not be able to put its prompt behind `/clear` or a server's prompt.
 */
export function loadCustomCommands(cwd: string, reserved: readonly string[], env: Env = process.env): CustomCommand[] {
  const commands = new Map<string, CustomCommand>();
  for (const { folder, scope } of commandFolders(cwd, env)) {
    for (const file of commandFiles(folder)) {
      // A server's prompt is `/mcp__<server>__<prompt>`: a file must not stand in for one.
      if (reserved.includes(file.name) || file.name.startsWith("mcp__")) continue;
      const read = readBoundedText(file.path, MAX_COMMAND_FILE_BYTES);
      if ("error" in read) continue;
      commands.set(file.name, { ...parseCommandFile(read.text), name: file.name, scope, path: file.path });
    }
  }
  return [...commands.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The `.md` files under a folder, with their command names; a folder that is not there has none. */
function commandFiles(root: string): Array<{ name: string; path: string }> {
  const found: Array<{ name: string; path: string }> = [];
  const walk = (folder: string, prefix: string[], depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_FILES_PER_FOLDER) return;
      if (entry.isDirectory() && depth < MAX_DEPTH && NAME.test(entry.name)) walk(join(folder, entry.name), [...prefix, entry.name], depth + 1);
      else if (entry.isFile() && entry.name.endsWith(".md")) {
        const base = entry.name.slice(0, -".md".length);
        if (NAME.test(base)) found.push({ name: [...prefix, base].join(":"), path: join(folder, entry.name) });
      }
    }
  };
  walk(root, [], 0);
  return found;
}
