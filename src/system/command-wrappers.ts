/**
 * How a command runs another command, read from its words, so that permission rules look at the
 * command that really runs: `timeout 60 npm test` is `npm test`, and `timeout 5 bash -c "rm -rf x"`
 * is something no rule can vouch for. A rule naming only a wrapper (`Bash(timeout:*)`) would allow
 * every command behind it, so such a rule allows nothing and is never suggested.
 */
export type CommandWrapper =
  /**
   * Runs the words after its options (and `operands` more words, e.g. timeout's duration) as a
   * command, which the rules are matched against. `appends`: it adds words of its own after them
   * (xargs), so only a prefix rule can match. An option it does not list makes the command hidden.
   */
  | { kind: "prefix"; flags?: readonly string[]; values?: readonly string[]; hiding?: readonly string[]; operands?: number; appends?: boolean }
  /** Runs a command that cannot be read from the words (another user's, a string of shell): never allowed by a rule. */
  | { kind: "hidden" }
  /**
   * Runs a program it is given (a script, a module, a package): a rule must name that program too
   * (`Bash(python3 manage.py:*)`, never `Bash(python3:*)`), and with an inline-code option, or
   * nothing to run (it reads stdin), the call is hidden.
   */
  | { kind: "runner"; inline: readonly string[] };

const SHELL: CommandWrapper = { kind: "runner", inline: ["-c", "-s", "-i"] };
const PYTHON: CommandWrapper = { kind: "runner", inline: ["-c", "-"] };
const JS: CommandWrapper = { kind: "runner", inline: ["-e", "--eval", "-p", "--print"] };
const SCRIPT: CommandWrapper = { kind: "runner", inline: ["-e", "-E", "-r"] };
const PACKAGE_RUNNER: CommandWrapper = { kind: "runner", inline: ["-c", "--call", "--shell"] };
const HIDDEN: CommandWrapper = { kind: "hidden" };

/**
 * Every command that runs another command, and how: the one list the allow rules, the deny view, the
 * "always" suggestion and the settings' warning all read, by the command's name with its folder and
 * version left off (see wrapperName: `/usr/bin/python3.12` is python). Not a sandbox: a program that
 * runs commands it reads from a file (make, a test runner) is the rule's business, not this list's.
 */
export const COMMAND_WRAPPERS: Readonly<Record<string, CommandWrapper>> = {
  timeout: { kind: "prefix", flags: ["--preserve-status", "--foreground", "-v", "--verbose"], values: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  nice: { kind: "prefix", values: ["-n", "--adjustment"] },
  nohup: { kind: "prefix" },
  time: { kind: "prefix", flags: ["-p", "-a", "-v", "-q", "--portability", "--append", "--verbose", "--quiet"], values: ["-f", "--format", "-o", "--output"] },
  command: { kind: "prefix", flags: ["-p", "-v", "-V"] },
  builtin: { kind: "prefix" },
  exec: { kind: "prefix", flags: ["-c", "-l"], values: ["-a"] },
  env: { kind: "prefix", flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug"], values: ["-u", "--unset", "-C", "--chdir"], hiding: ["-S", "--split-string"] },
  stdbuf: { kind: "prefix", values: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  ionice: { kind: "prefix", flags: ["-t", "--ignore"], values: ["-c", "--class", "-n", "--classdata"] },
  setsid: { kind: "prefix", flags: ["-c", "--ctty", "-f", "--fork", "-w", "--wait"] },
  unbuffer: { kind: "prefix" },
  // With -I (or -i, --replace) xargs puts its input into any word, the command's name included.
  xargs: {
    kind: "prefix",
    appends: true,
    flags: ["-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-p", "--interactive", "-x", "--exit", "-o", "--open-tty"],
    values: ["-n", "--max-args", "-L", "--max-lines", "-P", "--max-procs", "-s", "--max-chars", "-d", "--delimiter", "-E", "-a", "--arg-file"],
    hiding: ["-I", "-i", "--replace", "-e", "--eof", "-l"],
  },
  // `busybox sh -c …` is sh: the applet is the command.
  busybox: { kind: "prefix" },
  toybox: { kind: "prefix" },
  sudo: HIDDEN,
  doas: HIDDEN,
  su: HIDDEN,
  pkexec: HIDDEN,
  runuser: HIDDEN,
  sg: HIDDEN,
  chroot: HIDDEN,
  unshare: HIDDEN,
  nsenter: HIDDEN,
  eval: HIDDEN,
  source: HIDDEN,
  ".": HIDDEN,
  watch: HIDDEN,
  flock: HIDDEN,
  chrt: HIDDEN,
  taskset: HIDDEN,
  ssh: HIDDEN,
  script: HIDDEN,
  parallel: HIDDEN,
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  ash: SHELL,
  yash: SHELL,
  csh: SHELL,
  tcsh: SHELL,
  fish: SHELL,
  python: PYTHON,
  pypy: PYTHON,
  node: JS,
  nodejs: JS,
  bun: JS,
  deno: JS,
  perl: SCRIPT,
  ruby: SCRIPT,
  php: SCRIPT,
  npx: PACKAGE_RUNNER,
  bunx: PACKAGE_RUNNER,
  pnpx: PACKAGE_RUNNER,
};

/** find runs a command of its own with these (the command after them is what a deny rule looks at). */
export const FIND_COMMAND_OPTIONS: readonly string[] = ["-exec", "-execdir", "-ok", "-okdir"];

/** What a command line's words run: the command from `start` on, or something no rule can read. */
export type WrappedCommand = { kind: "command"; start: number; appends: boolean } | { kind: "hidden"; why: string };

/**
 * Looks through the wrappers in front of a command (`nice -n 5 timeout 60 npm test` → `npm test`
 * at word 5). Hidden: a wrapper of the hidden kind, an option a wrapper does not list, an
 * assignment after `env`, a runner's inline code or stdin, find's `-exec`. `start` may be the
 * number of words: a wrapper with no command after it.
 */
export function wrappedCommand(words: readonly string[]): WrappedCommand {
  let i = 0;
  let appends = false;
  for (;;) {
    const name = words[i];
    const wrapper = name === undefined ? undefined : wrapperOf(name);
    if (name === undefined || !wrapper) break;
    if (wrapper.kind === "hidden") return { kind: "hidden", why: `${name} runs a command no rule can read` };
    if (wrapper.kind === "runner") return runnerCall(words, i, name, wrapper, appends);
    const next = afterOptions(words, i + 1, wrapper);
    if (typeof next === "string") return { kind: "hidden", why: `${name} ${next}` };
    i = next;
    if (wrapperName(name) === "env" && words[i] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string)) {
      return { kind: "hidden", why: "env sets variables that change what runs" };
    }
    appends ||= wrapper.appends === true;
  }
  if (words[i] !== undefined && commandName(words[i] as string) === "find" && words.slice(i + 1).some((word) => FIND_COMMAND_OPTIONS.includes(word))) return { kind: "hidden", why: "find runs a command of its own" };
  return { kind: "command", start: i, appends };
}

/** Whether a rule starting with `words` would name only a wrapper or a runner, and so allow anything behind it. */
export function namesOnlyWrapper(words: readonly string[]): boolean {
  const wrapper = words[0] === undefined ? undefined : wrapperOf(words[0]);
  if (!wrapper) return false;
  return wrapper.kind !== "runner" || !words.slice(1).some((word) => !word.startsWith("-"));
}

/** The wrapper the command word `word` names, if any (`/bin/sh`, `python3.12`, `nodejs` included). */
export function wrapperOf(word: string): CommandWrapper | undefined {
  const name = wrapperName(word);
  return name === undefined ? undefined : COMMAND_WRAPPERS[name];
}

/** The program a command word runs, its folder left off: `/usr/bin/timeout` is timeout. */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** `python3.12`, `python3.13t`, `perl5.36`, `ksh93`, `pypy3`: a version after the name. */
const VERSIONED = /^([A-Za-z]+?)-?\d+(?:\.\d+)*[a-z]?$/;

/**
 * The COMMAND_WRAPPERS entry a command word is, by its name without folder or version: a rule or a
 * deny must not be got past by writing `/bin/sh` or `python3.12` for sh or python. Own keys only
 * (`constructor` is no wrapper).
 */
function wrapperName(word: string): string | undefined {
  const name = commandName(word);
  const unversioned = VERSIONED.exec(name)?.[1];
  return [name, unversioned].find((key) => key !== undefined && Object.hasOwn(COMMAND_WRAPPERS, key));
}

/**
 * Whether `word`, after a runner, makes it run code given inline: an option it lists, or a cluster
 * of short options holding one (`bash -xc`, `perl -ne`). The one home of that rule: allow rules and
 * the deny view both ask it.
 */
export function runsInline(runner: Extract<CommandWrapper, { kind: "runner" }>, word: string): boolean {
  if (runner.inline.includes(word)) return true;
  if (!/^-[A-Za-z]+$/.test(word)) return false;
  return runner.inline.some((option) => /^-[A-Za-z]$/.test(option) && word.slice(1).includes(option[1] as string));
}

function runnerCall(words: readonly string[], at: number, name: string, runner: Extract<CommandWrapper, { kind: "runner" }>, appends: boolean): WrappedCommand {
  const rest = words.slice(at + 1);
  if (rest.some((word) => runsInline(runner, word))) return { kind: "hidden", why: `${name} runs code given inline` };
  if (!rest.some((word) => !word.startsWith("-"))) return { kind: "hidden", why: `${name} with nothing to run reads its commands from stdin` };
  return { kind: "command", start: at, appends };
}

/** The index after a prefix wrapper's options and operands, or why they cannot be read. */
function afterOptions(words: readonly string[], from: number, wrapper: Extract<CommandWrapper, { kind: "prefix" }>): number | string {
  let i = from;
  for (; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-") || word === "-") break;
    const name = word.includes("=") ? word.slice(0, word.indexOf("=")) : word;
    if (wrapper.hiding?.includes(name) || wrapper.hiding?.some((option) => /^-[A-Za-z]$/.test(option) && word.startsWith(option) && word.length > 2)) {
      return `with ${name} runs what no rule can read`;
    }
    if (wrapper.flags?.includes(word)) continue;
    if (/^-\d+$/.test(word)) continue; // nice -10
    if (wrapper.values?.includes(name)) {
      if (name === word) i++; // The value is the next word.
      continue;
    }
    // `-n5`, `-sKILL`: a short option with its value attached.
    if (wrapper.values?.some((option) => /^-[A-Za-z]$/.test(option) && word.startsWith(option))) continue;
    return `has an option cat-code does not know (${word})`;
  }
  i += wrapper.operands ?? 0;
  return Math.min(i, words.length);
}
