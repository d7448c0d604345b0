import { optionCheck, type Check, type OptionSpec } from "./command-options.ts";
import { findCheck } from "./read-only-find.ts";
import { gitCheck } from "./read-only-git.ts";

/**
 * What a command on the read-only list may be given. `check`: its options (none: no option of it
 * can write, run or read elsewhere). `readsPaths: false`: no argument is a file it reads. `globs`: a
 * glob (`*.ts`) may stand among its arguments: `"any"` only where no option could do harm (a glob
 * expands to the project's file names, and a file named `--files0-from=x` would be an option);
 * `"inside"` where the glob cannot begin a word (`src/*.ts`, never `*`), so no name it expands to
 * is an option.
 */
export interface ReadOnlyEntry {
  check?: Check;
  readsPaths?: false;
  globs?: "any" | "inside";
  /** Its path operands must be files: given folders, it reads the files in them, following their symlinks (diff). */
  filesOnly?: true;
}

const COMMON = ["help", "version"];
const FOLLOWS = "follows symlinks, so it may read outside the project";
const FILE_LIST = "reads a list of files to read from a file";
const WRITES = "writes a file";

function entry(name: string, spec: OptionSpec, extra: Omit<ReadOnlyEntry, "check"> = {}): ReadOnlyEntry {
  return { ...extra, check: optionCheck(name, { ...spec, long: [...(spec.long ?? []), ...COMMON] }) };
}

const CHECKSUM: OptionSpec = {
  flags: "btz",
  long: ["binary", "text", "tag", "zero", "untagged"],
  refused: { "-c": FILE_LIST, "--check": FILE_LIST },
};

/** grep's options, the same for egrep and fgrep; -r follows no symlink it meets (the paths named are checked after theirs). */
const GREP: OptionSpec = {
  flags: "EFGPiywxzsvVcLloqbHhnTZUarI",
  valued: "efmABCd",
  numbers: true,
  long: ["extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "regexp=", "file=", "ignore-case", "no-ignore-case", "word-regexp", "line-regexp", "null-data", "no-messages", "invert-match", "max-count=", "byte-offset", "line-number", "no-line-number", "line-buffered", "with-filename", "no-filename", "label=", "only-matching", "quiet", "silent", "binary-files=", "text", "directories=", "recursive", "include=", "exclude=", "exclude-dir=", "files-without-match", "files-with-matches", "count", "initial-tab", "null", "before-context=", "after-context=", "context=", "color[=]", "colour[=]", "binary"],
  refused: { "-R": FOLLOWS, "--dereference-recursive": FOLLOWS, "--exclude-from": "reads a file", "-D": "reads devices", "--devices": "reads devices" },
};

/**
 * The commands, each with the options it may be given (see command-options.ts). Options that make
 * a command write, run a program, read other files than those named, recurse through symlinks or
 * never end are left off, and named under `refused` where a model might reach for them.
 */
export const READ_ONLY: Readonly<Record<string, ReadOnlyEntry>> = {
  // Print their arguments or facts; no argument is a file they read, and no option does harm.
  pwd: { readsPaths: false },
  echo: { readsPaths: false, globs: "any" },
  seq: { readsPaths: false },
  true: { readsPaths: false },
  false: { readsPaths: false },
  whoami: { readsPaths: false },
  basename: { readsPaths: false },
  dirname: { readsPaths: false },
  date: entry(
    "date",
    { flags: "uR", valued: "dI", long: ["date=", "debug", "iso-8601[=]", "resolution", "rfc-email", "rfc-3339=", "utc", "universal"], refused: { "-s": "sets the clock", "--set": "sets the clock", "-f": "reads a file", "--file": "reads a file", "-r": "reads a file", "--reference": "reads a file" } },
    { readsPaths: false },
  ),
  // Read the files they are given.
  ls: entry(
    "ls",
    {
      flags: "aAbBcCdDfFgGhHiklmnNopqQrRsStuUvxXZ1",
      valued: "ITw",
      long: ["all", "almost-all", "author", "escape", "block-size=", "ignore-backups", "color[=]", "directory", "dired", "classify[=]", "file-type", "format=", "full-time", "group-directories-first", "no-group", "human-readable", "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "hide=", "hyperlink[=]", "indicator-style=", "inode", "ignore=", "kibibytes", "literal", "numeric-uid-gid", "hide-control-chars", "show-control-chars", "quote-name", "quoting-style=", "reverse", "recursive", "size", "sort=", "time=", "time-style=", "tabsize=", "width=", "context", "zero"],
      refused: { "-L": FOLLOWS, "--dereference": FOLLOWS },
    },
    { globs: "inside" },
  ),
  cat: entry("cat", { flags: "AbeEnstTuv", long: ["show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"] }, { globs: "any" }),
  head: entry("head", { flags: "qvz", valued: "cn", numbers: true, long: ["bytes=", "lines=", "quiet", "silent", "verbose", "zero-terminated"] }, { globs: "any" }),
  tail: entry(
    "tail",
    { flags: "qvz", valued: "cn", numbers: true, long: ["bytes=", "lines=", "quiet", "silent", "verbose", "zero-terminated"], refused: { "-f": "never ends", "-F": "never ends", "--follow": "never ends", "--retry": "waits for a file", "--pid": "waits for a process" } },
    { globs: "inside" },
  ),
  wc: entry("wc", { flags: "cmlLw", long: ["bytes", "chars", "lines", "max-line-length", "words", "total="], refused: { "--files0-from": FILE_LIST } }, { globs: "inside" }),
  stat: entry("stat", { flags: "Lft", valued: "c", long: ["dereference", "file-system", "format=", "printf=", "terse", "cached="] }, { globs: "inside" }),
  file: entry("file", {
    flags: "bcEhiklLNnrsv0",
    valued: "eFP",
    long: ["brief", "checking-printout", "exclude=", "exclude-quiet=", "extension", "mime", "mime-type", "mime-encoding", "keep-going", "list", "dereference", "no-dereference", "no-buffer", "no-pad", "raw", "special-files", "print0", "separator=", "parameter=", "apple"],
    refused: { "-C": WRITES, "--compile": WRITES, "-m": "reads a magic file that may be anywhere", "--magic-file": "reads a magic file that may be anywhere", "-f": FILE_LIST, "--files-from": FILE_LIST, "-p": "changes files' access times", "--preserve-date": "changes files' access times", "-z": "may run decompressors", "-Z": "may run decompressors", "--uncompress": "may run decompressors", "--uncompress-noreport": "may run decompressors", "-S": "turns its sandbox off", "--no-sandbox": "turns its sandbox off" },
  }),
  du: entry("du", {
    flags: "abcDhHklmPsSx0",
    valued: "Bdt",
    long: ["all", "apparent-size", "block-size=", "bytes", "total", "dereference-args", "max-depth=", "human-readable", "si", "inodes", "count-links", "no-dereference", "separate-dirs", "summarize", "threshold=", "time[=]", "time-style=", "exclude=", "one-file-system", "null"],
    refused: { "-L": FOLLOWS, "--dereference": FOLLOWS, "--files0-from": FILE_LIST, "-X": "reads a file", "--exclude-from": "reads a file" },
  }),
  nl: entry("nl", { flags: "p", valued: "bdfhilnsvw", long: ["body-numbering=", "section-delimiter=", "footer-numbering=", "header-numbering=", "line-increment=", "join-blank-lines=", "number-format=", "no-renumber", "number-separator=", "starting-line-number=", "number-width="] }),
  cut: entry("cut", { flags: "nsz", valued: "bcdf", long: ["bytes=", "characters=", "delimiter=", "fields=", "complement", "only-delimited", "output-delimiter=", "zero-terminated"] }),
  diff: entry("diff", {
    flags: "iEZbwBacuenyptTsqdN",
    valued: "ICUWF",
    long: ["normal", "brief", "report-identical-files", "context[=]", "unified[=]", "ed", "rcs", "side-by-side", "width=", "left-column", "suppress-common-lines", "show-c-function", "show-function-line=", "label=", "expand-tabs", "initial-tab", "tabsize=", "suppress-blank-empty", "new-file", "unidirectional-new-file", "ignore-case", "ignore-tab-expansion", "ignore-trailing-space", "ignore-space-change", "ignore-all-space", "ignore-blank-lines", "ignore-matching-lines=", "text", "strip-trailing-cr", "minimal", "speed-large-files", "color[=]", "no-dereference", "horizon-lines="],
    refused: { "-r": "recurses into folders (and their symlinks)", "--recursive": "recurses into folders (and their symlinks)", "-l": "runs pr", "--paginate": "runs pr", "--from-file": "compares a file with many", "--to-file": "compares many files with one" },
  }, { filesOnly: true }),
  cmp: entry("cmp", { flags: "bls", valued: "in", long: ["print-bytes", "ignore-initial=", "verbose", "bytes=", "quiet", "silent"] }),
  comm: entry("comm", { flags: "123z", long: ["check-order", "nocheck-order", "output-delimiter=", "total", "zero-terminated"] }),
  realpath: entry("realpath", { flags: "emLPqsz", long: ["canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero", "relative-to=", "relative-base="] }),
  readlink: entry("readlink", { flags: "femnqsvz", long: ["canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"] }),
  md5sum: entry("md5sum", CHECKSUM),
  sha1sum: entry("sha1sum", CHECKSUM),
  sha256sum: entry("sha256sum", CHECKSUM),
  sha512sum: entry("sha512sum", CHECKSUM),
  // Only with the options that read what they are given and write nothing.
  sort: entry("sort", {
    flags: "bdfghiMnRrVcCsuz",
    valued: "ktS",
    long: ["ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "human-numeric-sort", "ignore-nonprinting", "month-sort", "numeric-sort", "random-sort", "reverse", "sort=", "version-sort", "check[=]", "key=", "field-separator=", "stable", "unique", "zero-terminated", "buffer-size=", "parallel=", "debug"],
    refused: { "-o": WRITES, "--output": WRITES, "--compress-program": "runs a program", "-T": "writes temporary files there", "--temporary-directory": "writes temporary files there", "--files0-from": FILE_LIST, "--random-source": "reads a file" },
  }),
  uniq: { check: uniqCheck },
  tree: entry("tree", {
    flags: "adfiqNQpugshDFvtcUrCnASxJX",
    valued: "PIL",
    long: ["noreport", "dirsfirst", "filesfirst", "charset=", "filelimit=", "prune", "du", "si", "matchdirs", "ignore-case", "gitignore", "sort=", "timefmt="],
    refused: { "-o": WRITES, "-R": "writes 00Tree.html files", "-l": FOLLOWS, "--fromfile": FILE_LIST, "--infofile": "reads a file", "-H": "writes HTML with links" },
  }),
  grep: entry("grep", GREP),
  egrep: entry("egrep", GREP),
  fgrep: entry("fgrep", GREP),
  rg: entry("rg", {
    flags: "0abcFhHiIlnNopqsSUuvVwx.",
    valued: "ABCdeEfgmMrtTj",
    long: ["after-context=", "before-context=", "context=", "regexp=", "file=", "glob=", "iglob=", "type=", "type-not=", "type-list", "line-number", "no-line-number", "ignore-case", "smart-case", "case-sensitive", "fixed-strings", "word-regexp", "line-regexp", "count", "count-matches", "files", "files-with-matches", "files-without-match", "hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-ignore-global", "no-ignore-exclude", "no-ignore-files", "max-count=", "max-depth=", "max-filesize=", "max-columns=", "max-columns-preview", "only-matching", "invert-match", "json", "vimgrep", "heading", "no-heading", "with-filename", "no-filename", "color=", "colors=", "column", "no-column", "multiline", "multiline-dotall", "pcre2", "engine=", "sort=", "sortr=", "stats", "trim", "text", "null", "null-data", "quiet", "replace=", "passthru", "unrestricted", "threads=", "no-messages", "byte-offset", "encoding=", "crlf", "one-file-system", "no-config", "binary", "no-require-git", "pretty", "line-buffered", "block-buffered", "include-zero", "field-match-separator=", "field-context-separator=", "context-separator=", "no-context-separator", "path-separator="],
    refused: { "--pre": "runs a program", "--pre-glob": "runs a program", "-z": "runs decompressors", "--search-zip": "runs decompressors", "--hostname-bin": "runs a program", "-L": FOLLOWS, "--follow": FOLLOWS, "--ignore-file": "reads a file" },
  }),
  find: { check: findCheck },
  git: { check: gitCheck },
};

/** uniq writes a second operand; its options only change what it prints. */
const UNIQ_OPTIONS = optionCheck("uniq", { flags: "cdDiuz", valued: "fsw", long: ["count", "repeated", "all-repeated[=]", "group[=]", "skip-fields=", "ignore-case", "skip-chars=", "unique", "zero-terminated", "check-chars=", ...COMMON] });

function uniqCheck(args: readonly string[]): string | undefined {
  const options = UNIQ_OPTIONS(args);
  if (options) return options;
  const dashes = args.indexOf("--");
  const before = dashes < 0 ? args : args.slice(0, dashes);
  const operands = [...before.filter((arg) => !arg.startsWith("-") || arg === "-"), ...(dashes < 0 ? [] : args.slice(dashes + 1))];
  return operands.length > 1 ? "uniq writes its second operand" : undefined;
}
