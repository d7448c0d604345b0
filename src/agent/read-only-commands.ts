import { splitCommand, type CommandPart } from "../system/bash-command-parts.ts";
import { isInsideProject } from "./tools/project-scope.ts";

/**
 * Why a bash command line runs without asking: every simple command in it is on this list, used as
 * the list allows, and reads nothing outside the project. The list is conservative on purpose: a
 * command left off it is asked about, which is always safe; one on it must not be able to write a
 * file, run another program or reach outside the project with any option the check lets through.
 */
type Check = (args: readonly string[]) => string | undefined;

/**
 * The commands, each with the check its options must pass (none: any option is fine). `globs`: a
 * glob (`*.ts`) may stand among its arguments. Only for commands no option of which writes, runs or
 * reads a list of other files: a glob expands to the project's file names, and a file named
 * `--pre=./x` would be an option (rg would run ./x).
 */
const READ_ONLY: Readonly<Record<string, { check?: Check; readsPaths?: false; globs?: true }>> = {
  // Print their arguments or facts; no argument is a file they read.
  pwd: { readsPaths: false },
  echo: { readsPaths: false, globs: true },
  seq: { readsPaths: false },
  true: { readsPaths: false },
  false: { readsPaths: false },
  whoami: { readsPaths: false },
  basename: { readsPaths: false },
  dirname: { readsPaths: false },
  date: { readsPaths: false, check: refuse(["-s", "--set", "-f", "--file"]) },
  // Read files, write nothing whatever their options.
  ls: { globs: true },
  cat: { globs: true },
  head: { globs: true },
  tail: { globs: true },
  wc: { globs: true },
  stat: { globs: true },
  file: { check: refuse(["-C", "--compile", "-m", "--magic-file"]) },
  du: {},
  nl: {},
  cut: {},
  diff: {},
  cmp: {},
  comm: {},
  realpath: {},
  readlink: {},
  md5sum: {},
  sha1sum: {},
  sha256sum: {},
  sha512sum: {},
  // With the options that write (a file, or through a program they run) refused.
  sort: { check: refuse(["-o", "--output", "--compress-program", "-T", "--temporary-directory"]) },
  uniq: { check: (args) => (operands(args).length > 1 ? "uniq writes its second operand" : undefined) },
  tree: { check: refuse(["-o"]) },
  grep: {},
  egrep: {},
  fgrep: {},
  rg: { check: refuse(["--pre", "--pre-glob", "-z", "--search-zip", "--hostname-bin"]) },
  find: { check: findCheck },
  git: { check: gitCheck },
};

/** find's actions that write, delete or run a command. */
const FIND_ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

function findCheck(args: readonly string[]): string | undefined {
  const action = args.find((arg) => FIND_ACTIONS.test(arg));
  return action ? `find ${action} writes or runs a command` : undefined;
}

/** Options of git's log, diff, show and blame that write a file, run a program, or read an order file. */
const GIT_WRITING = refuse(["--output", "--ext-diff", "--textconv", "-O"]);

/** The git subcommands that only read, and for each the options refused. */
const GIT_SUBCOMMANDS: Readonly<Record<string, Check>> = {
  status: () => undefined,
  log: GIT_WRITING,
  diff: GIT_WRITING,
  show: GIT_WRITING,
  blame: GIT_WRITING,
  "rev-parse": () => undefined,
  "ls-files": () => undefined,
  branch: gitBranchCheck,
};

/** Only `git --no-pager` before the subcommand: `-c core.pager=…`, `--exec-path`, `-C <dir>`, `--git-dir` change what runs or where. */
function gitCheck(args: readonly string[]): string | undefined {
  let i = 0;
  while (args[i] === "--no-pager") i++;
  const sub = args[i];
  if (sub === undefined) return "git with no subcommand";
  if (sub.startsWith("-")) return `git ${sub} before the subcommand changes what git runs or where`;
  const check = Object.hasOwn(GIT_SUBCOMMANDS, sub) ? GIT_SUBCOMMANDS[sub] : undefined;
  if (!check) return `git ${sub} is not a read-only subcommand cat-code knows`;
  return check(args.slice(i + 1));
}

/** `git branch` lists only with these options and no name (a name creates a branch), or names as patterns after --list. */
const BRANCH_LISTING = /^(-a|--all|-r|--remotes|-v|-vv|--verbose|--show-current|--no-color|--color|--column|--no-column|-i|--ignore-case|--sort=.*|--format=.*|--contains|--no-contains|--merged|--no-merged|--points-at|--abbrev=.*|--no-abbrev|-l|--list)$/;

function gitBranchCheck(args: readonly string[]): string | undefined {
  const bad = args.find((arg) => arg.startsWith("-") && !BRANCH_LISTING.test(arg));
  if (bad) return `git branch ${bad} changes branches`;
  const listing = args.includes("-l") || args.includes("--list");
  // --contains and friends take a commit, which is no new branch's name.
  const names = args.filter((arg, i) => !arg.startsWith("-") && !/^--(no-)?(contains|merged)$|^--points-at$/.test(args[i - 1] ?? ""));
  return names.length > 0 && !listing ? "git branch <name> creates a branch" : undefined;
}

/**
 * A check refusing these options: as words, as `--opt=value`, and a short one anywhere in a cluster
 * (`-uo out`, `-ofile`; a letter that is only another option's value is refused too, which is safe).
 */
function refuse(options: readonly string[]): Check {
  return (args) => {
    for (const arg of args) {
      if (arg === "--") break;
      const long = arg.startsWith("--") ? arg.split("=")[0] : undefined;
      const hit = options.find((option) => (long !== undefined ? long === option : /^-[A-Za-z]$/.test(option) && /^-[^-]/.test(arg) && arg.slice(1).includes(option.slice(1))));
      if (hit) return `${hit} writes a file or runs a program`;
    }
    return undefined;
  };
}

/** The words that are not options (after `--`, all of them). */
function operands(args: readonly string[]): string[] {
  const dashes = args.indexOf("--");
  const before = dashes < 0 ? args : args.slice(0, dashes);
  const after = dashes < 0 ? [] : args.slice(dashes + 1);
  return [...before.filter((arg) => !arg.startsWith("-") || arg === "-"), ...after];
}

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
  const paths: string[] = [];
  for (const part of split.parts) {
    const why = partProblem(part, paths, guard);
    if (why) return { readOnly: false, why };
  }
  return pathsProblem(paths, cwd, guard);
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
  const paths: string[] = [];
  if (partProblem(part, paths, guard)) return false;
  return (await pathsProblem(paths, cwd, guard)).readOnly;
}

async function pathsProblem(paths: readonly string[], cwd: string, guard: ReadGuard | undefined): Promise<ReadOnlyVerdict> {
  for (const path of paths) {
    if (!(await isInsideProject(cwd, path))) return { readOnly: false, why: `${path} is outside the project`, outside: true };
    if (guard?.guards(path)) return { readOnly: false, why: `a rule guards reading ${path}` };
  }
  return { readOnly: true };
}

/** Why one simple command is not read-only; its path arguments are added to `paths`. */
function partProblem(part: CommandPart, paths: string[], guard: ReadGuard | undefined): string | undefined {
  if (part.assignments.length > 0) return `${part.assignments[0]} in front changes what runs`;
  const [name, ...rest] = part.words;
  if (!name?.literal) return "its command is not plain text";
  const entry = Object.hasOwn(READ_ONLY, name.text) ? READ_ONLY[name.text] : undefined;
  if (!entry) return `${name.text} is not on the read-only list`;
  // $VAR, ~ and {a,b} expand to words the text does not show; a glob (*.ts) stays in its folder.
  const hidden = rest.find((word) => !word.literal && (/[$~{}`]/.test(word.text) || !entry.globs || guard?.any));
  if (hidden) return `${hidden.text} expands to something the command line does not show`;
  const args = rest.map((word) => word.text);
  const why = entry.check?.(args);
  if (why) return why;
  if (entry.readsPaths !== false) paths.push(...args.flatMap(pathOf));
  return undefined;
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

/** The commands on the list, for the README and /help. */
export const READ_ONLY_COMMAND_NAMES: readonly string[] = Object.keys(READ_ONLY);
