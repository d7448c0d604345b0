import { splitCommand, type CommandPart } from "../system/bash-command-parts.ts";
import { READ_ONLY, type ReadOnlyEntry } from "./read-only-command-list.ts";
import { isInsideProject } from "./tools/project-scope.ts";
import { resolveInWorkspace } from "./tools/workspace-path.ts";
import { readdir, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { join } from "node:path";

/**
 * Why a bash command line runs without asking: every simple command in it is on this list, used as
 * the list allows, and reads nothing outside the project. The list is conservative on purpose: a
 * command left off it is asked about, which is always safe; one on it must not be able to write a
 * file, run another program or reach outside the project with any option the check lets through.
 * The list and each command's options: read-only-command-list.ts.
 */

/** `outside`: the line only reads, but reads outside the project (asked about, as read_file there is). */
export type ReadOnlyVerdict = { readOnly: true } | { readOnly: false; why: string; outside?: true };

/**
 * Whether `command` only reads, so it may run without asking: read from the parsed line (see
 * splitCommand), never guessed. Not read-only: anything splitCommand cannot read (`$(…)`, backticks,
 * `<(…)`, here-docs, subshells, a redirection other than to /dev/null or `2>&1`), a part with an
 * assignment in front (`GIT_PAGER=… git log`), a command not on the list or named by a path
 * (`./ls`), a word the shell would change in a way that hides a path (`$VAR`, `~`, `{a,b}`), an
 * option the command's check refuses, or a path (after symlinks) outside the project.
 */
export async function readOnlyCommand(command: string, cwd: string, guard?: ReadGuard): Promise<ReadOnlyVerdict> {
  const split = splitCommand(command);
  if (!split.ok) return { readOnly: false, why: `it holds ${split.reason}` };
  if (split.parts.length === 0) return { readOnly: false, why: "it is empty" };
  const reads: Reads = { paths: [], globs: [], files: [] };
  for (const part of split.parts) {
    const why = partProblem(part, reads, guard);
    if (why) return { readOnly: false, why };
  }
  return readsProblem(reads, cwd, guard);
}

/**
 * The user's rules about reading (a `Read(.env)` deny or ask rule): a path one guards is not read
 * unasked by a command either, and where any rule guards reads, a glob (whose files the line does
 * not show) is not read unasked.
 */
export interface ReadGuard {
  guards(path: string): boolean;
  any: boolean;
}

/** Whether one simple command of a line (see splitCommand) is read-only, as readOnlyCommand judges a whole line. */
export async function readOnlyPart(part: CommandPart, cwd: string, guard?: ReadGuard): Promise<boolean> {
  const reads: Reads = { paths: [], globs: [], files: [] };
  if (partProblem(part, reads, guard)) return false;
  return (await readsProblem(reads, cwd, guard)).readOnly;
}

/** What a line reads: the paths its words name, and its globs (whose files the text does not show). */
interface Reads {
  paths: string[];
  globs: string[];
  /** Paths that must not be folders (see ReadOnlyEntry.filesOnly). */
  files: string[];
}

async function readsProblem(reads: Reads, cwd: string, guard: ReadGuard | undefined): Promise<ReadOnlyVerdict> {
  for (const path of reads.paths) {
    if (!(await isInsideProject(cwd, path))) return { readOnly: false, why: `${path} is outside the project`, outside: true };
    if (guard?.guards(path)) return { readOnly: false, why: `a rule guards reading ${path}` };
  }
  for (const glob of reads.globs) {
    const why = await globProblem(glob, cwd);
    if (why) return { readOnly: false, why, outside: true };
  }
  for (const path of reads.files) {
    const folder = await stat(resolveInWorkspace(cwd, path)).then((found) => found.isDirectory(), () => false);
    if (folder) return { readOnly: false, why: `${path} is a folder, whose files may be links out of the project` };
  }
  return { readOnly: true };
}

/** Entries of one folder a glob is checked against; a bigger folder asks. */
const MAX_GLOB_ENTRIES = 10_000;

/**
 * Why a glob may expand to a path outside the project: a symlink in its folder leading out (`cat
 * src/*` with src/key -> ~/.ssh/id_rsa), or a pattern over folders (`src/*\/x`), whose links cannot
 * be told from one folder. A link counts when its name may match the glob's last part.
 */
async function globProblem(glob: string, cwd: string): Promise<string | undefined> {
  const first = glob.search(/[*?[]/);
  const slash = glob.lastIndexOf("/", first);
  if (glob.indexOf("/", first) >= 0) return `${glob} may lead through folders out of the project`;
  const folder = slash < 0 ? "." : glob.slice(0, slash + 1);
  let entries: Dirent[];
  try {
    entries = await readdir(resolveInWorkspace(cwd, folder), { withFileTypes: true });
  } catch {
    return undefined; // No folder: the glob matches nothing there.
  }
  if (entries.length > MAX_GLOB_ENTRIES) return `${glob} is over a folder of more than ${MAX_GLOB_ENTRIES} entries`;
  const matches = namePattern(glob.slice(slash + 1));
  for (const entry of entries) {
    if (entry.isSymbolicLink() && matches.test(entry.name) && !(await isInsideProject(cwd, join(folder, entry.name)))) return `${glob} may expand to ${join(folder, entry.name)}, which leads outside the project`;
  }
  return undefined;
}

/** A glob's last part as a regular expression matching at least what bash matches (dot files too; with a `[…]`, every name). */
function namePattern(glob: string): RegExp {
  if (glob.includes("[")) return /^/;
  const source = glob.replace(/[*?]|[^*?]+/g, (part) => (part === "*" ? ".*" : part === "?" ? "." : part.replace(/[.+^${}()|\\\]]/g, "\\$&")));
  return new RegExp(`^${source}$`, "s");
}

/** Why one simple command is not read-only; its path arguments are added to `reads`. */
function partProblem(part: CommandPart, reads: Reads, guard: ReadGuard | undefined): string | undefined {
  if (part.assignments.length > 0) return `${part.assignments[0]} in front changes what runs`;
  const [name, ...rest] = part.words;
  if (!name?.literal) return "its command is not plain text";
  const entry = Object.hasOwn(READ_ONLY, name.text) ? READ_ONLY[name.text] : undefined;
  if (!entry) return `${name.text} is not on the read-only list`;
  // $VAR, ~ and {a,b} expand to words the text does not show; a glob (*.ts) stays in its folder.
  const hidden = rest.find((word) => !word.literal && (/[$~{}`]/.test(word.text) || !globAllowed(entry, word.text) || guard?.any));
  if (hidden) return `${hidden.text} expands to something the command line does not show`;
  const args = rest.map((word) => word.text);
  const why = entry.check?.(args);
  if (why) return why;
  if (entry.readsPaths !== false) {
    reads.paths.push(...args.flatMap(pathOf));
    reads.globs.push(...rest.filter((word) => !word.literal).map((word) => word.text));
    if (entry.filesOnly) reads.files.push(...args.flatMap(pathOf));
  }
  return undefined;
}

/** Whether a glob may stand here: anywhere, or only where no name it expands to can be an option (see ReadOnlyEntry). */
function globAllowed(entry: ReadOnlyEntry, text: string): boolean {
  return entry.globs === "any" || (entry.globs === "inside" && !/^[*?[-]/.test(text));
}

/**
 * The path an argument may name, to be found inside the project: an operand as it is, an option's
 * value after `=`; a short option with a path glued to it (`-f/etc/x`, `-f../x`) from its first `.` or `/`.
 * Words that are not paths (a grep pattern, a number) resolve inside the project and pass.
 */
function pathOf(arg: string): string[] {
  if (!arg.startsWith("-") || arg === "-") return arg === "-" ? [] : [arg];
  if (arg.includes("=")) return [arg.slice(arg.indexOf("=") + 1)];
  return arg.includes("/") ? [arg.slice(arg.search(/[./]/))] : [];
}
