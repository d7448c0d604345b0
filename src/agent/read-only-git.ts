import { optionCheck, type Check } from "./command-options.ts";

/** Options of log, diff and show (diff's and the revision walk's) that only choose what is printed. */
const DIFF_OPTIONS = [
  "patch", "no-patch", "unified=", "raw", "patch-with-raw", "patch-with-stat", "stat[=]", "stat-width=", "stat-name-width=", "stat-graph-width=", "stat-count=",
  "compact-summary", "numstat", "shortstat", "dirstat[=]", "cumulative", "dirstat-by-file[=]", "summary", "name-only", "name-status", "submodule[=]", "color[=]",
  "no-color", "color-moved[=]", "no-color-moved", "color-moved-ws=", "no-color-moved-ws", "word-diff[=]", "word-diff-regex=", "color-words[=]", "no-renames", "renames",
  "rename-empty", "no-rename-empty", "check", "ws-error-highlight=", "full-index", "binary", "abbrev[=]", "no-abbrev", "break-rewrites[=]", "find-renames[=]",
  "find-copies[=]", "find-copies-harder", "irreversible-delete", "diff-filter=", "find-object=", "pickaxe-all", "pickaxe-regex", "skip-to=", "rotate-to=",
  "relative[=]", "no-relative", "text", "ignore-cr-at-eol", "ignore-space-at-eol", "ignore-space-change", "ignore-all-space", "ignore-blank-lines",
  "ignore-matching-lines=", "inter-hunk-context=", "function-context", "exit-code", "quiet", "no-ext-diff", "no-textconv", "ignore-submodules[=]",
  "src-prefix=", "dst-prefix=", "no-prefix", "default-prefix", "line-prefix=", "ita-invisible-in-index", "minimal", "patience", "histogram", "anchored=",
  "diff-algorithm=", "indent-heuristic", "no-indent-heuristic", "cached", "staged", "merge-base", "no-index", "output-indicator-new=", "output-indicator-old=",
  "output-indicator-context=", "combined-all-paths", "cc", "dd", "remerge-diff", "diff-merges=", "no-diff-merges", "full-diff",
];
const REVISION_OPTIONS = [
  "oneline", "pretty[=]", "format=", "abbrev-commit", "no-abbrev-commit", "encoding=", "expand-tabs[=]", "no-expand-tabs", "notes[=]", "no-notes", "show-notes[=]",
  "relative-date", "date=", "parents", "children", "left-right", "graph", "show-linear-break[=]", "decorate[=]", "no-decorate", "decorate-refs=",
  "decorate-refs-exclude=", "clear-decorations", "source", "use-mailmap", "no-use-mailmap", "mailmap", "no-mailmap", "log-size", "follow", "max-count=", "skip=",
  "since=", "after=", "until=", "before=", "since-as-filter=", "author=", "committer=", "grep-reflog=", "grep=", "all-match", "invert-grep", "regexp-ignore-case",
  "basic-regexp", "extended-regexp", "fixed-strings", "perl-regexp", "remove-empty", "merges", "no-merges", "min-parents=", "max-parents=", "no-min-parents",
  "no-max-parents", "first-parent", "exclude-first-parent-only", "not", "all", "branches[=]", "tags[=]", "remotes[=]", "glob=", "exclude=", "reflog",
  "single-worktree", "ignore-missing", "cherry-mark", "cherry-pick", "left-only", "right-only", "cherry", "walk-reflogs", "merge", "boundary",
  "simplify-by-decoration", "show-pulls", "full-history", "dense", "sparse", "simplify-merges", "ancestry-path[=]", "date-order", "author-date-order",
  "topo-order", "reverse", "no-walk[=]", "do-walk", "in-commit-order", "count",
];
/** Write a file, run a program, or read one named by the option (see `git help diff`). */
const DIFF_REFUSED = {
  "--output": "writes a file",
  "--ext-diff": "runs the configured diff program",
  "--textconv": "runs the configured conversion program",
  "-O": "reads an order file",
  "--show-signature": "runs gpg",
};
const LOG_DIFF_SHOW = optionCheck("git", {
  flags: "pusRabwWmctrizEFPDg",
  valued: "UnSGlMCBXL",
  numbers: true,
  long: [...DIFF_OPTIONS, ...REVISION_OPTIONS, "help"],
  refused: DIFF_REFUSED,
});

/** The git subcommands that only read, and for each the options it may be given. */
const GIT_SUBCOMMANDS: Readonly<Record<string, Check>> = {
  status: optionCheck("git status", {
    flags: "sbvz",
    valued: "u",
    long: ["short", "branch", "show-stash", "porcelain[=]", "long", "verbose", "untracked-files[=]", "ignore-submodules[=]", "ignored[=]", "column[=]", "no-column", "ahead-behind", "no-ahead-behind", "renames", "no-renames", "find-renames[=]", "null"],
  }),
  log: LOG_DIFF_SHOW,
  diff: LOG_DIFF_SHOW,
  show: LOG_DIFF_SHOW,
  blame: optionCheck("git blame", {
    flags: "bltsewpfnc",
    valued: "LSMC",
    long: ["root", "show-stats", "progress", "no-progress", "score-debug", "show-name", "show-number", "show-email", "porcelain", "line-porcelain", "incremental", "date=", "abbrev[=]", "reverse=", "first-parent", "contents=", "ignore-rev=", "ignore-revs-file=", "color-lines", "color-by-age", "minimal", "encoding="],
  }),
  "rev-parse": optionCheck("git rev-parse", {
    flags: "q",
    long: ["show-toplevel", "show-prefix", "show-cdup", "git-dir", "absolute-git-dir", "git-common-dir", "is-inside-work-tree", "is-inside-git-dir", "is-bare-repository", "is-shallow-repository", "abbrev-ref[=]", "short[=]", "verify", "quiet", "symbolic", "symbolic-full-name", "all", "branches[=]", "tags[=]", "remotes[=]", "glob=", "exclude=", "show-object-format[=]", "show-ref-format", "default=", "sq", "not", "revs-only", "no-revs", "flags", "no-flags", "local-env-vars", "git-path=", "show-superproject-working-tree", "shared-index-path", "path-format=", "since=", "after=", "until=", "before="],
  }),
  "ls-files": optionCheck("git ls-files", {
    flags: "cdmoiskuztvf",
    valued: "xX",
    long: ["cached", "deleted", "modified", "others", "ignored", "stage", "unmerged", "killed", "directory", "no-empty-directory", "eol", "deduplicate", "exclude=", "exclude-from=", "exclude-per-directory=", "exclude-standard", "error-unmatch", "full-name", "recurse-submodules", "abbrev[=]", "format=", "debug", "sparse", "with-tree=", "resolve-undo"],
  }),
  branch: gitBranchCheck,
};

/** Only `git --no-pager` before the subcommand: `-c core.pager=…`, `--exec-path`, `-C <dir>`, `--git-dir` change what runs or where. */
export function gitCheck(args: readonly string[]): string | undefined {
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
