import { commandName, FIND_COMMAND_OPTIONS, runsInline, wrapperOf } from "./command-wrappers.ts";

/** One word of a command; `literal` is false when the shell would change it (a `$VAR`, a glob, `~`). */
export interface CommandWord {
  text: string;
  literal: boolean;
}

/** One simple command: the `NAME=value` assignments before it, then its words, quotes removed. */
export interface CommandPart {
  assignments: string[];
  words: CommandWord[];
}

export type SplitCommand = { ok: true; parts: CommandPart[] } | { ok: false; reason: string };

/** Redirections that cannot write or read a file: `2>&1`, `>&2`, and output thrown away. */
const HARMLESS_TARGET = "/dev/null";

/**
 * Splits a bash command line into the simple commands an allow rule is checked against, at `;`,
 * `&&`, `||`, `|`, `&` and newlines, the way bash reads quotes and backslashes. Anything whose effect
 * cannot be read from the text with certainty makes the whole command not ok, and then no allow rule
 * matches it (the user is asked): command and process substitution (`$(…)`, backticks, `<(…)`),
 * subshells and groups (`(…)`), here-documents, and redirections other than `N>&M` or to /dev/null
 * (`npm test > ~/.bashrc` writes a file that `npm test` alone never would). Comments are dropped.
 */
export function splitCommand(command: string): SplitCommand {
  const parts: CommandPart[] = [];
  let words: CommandWord[] = [];
  let word = "";
  let inWord = false;
  let literal = true;
  const endWord = () => {
    if (inWord) words.push({ text: word, literal });
    word = "";
    inWord = false;
    literal = true;
  };
  const endPart = () => {
    endWord();
    if (words.length > 0) parts.push(toPart(words));
    words = [];
  };
  const fail = (reason: string): SplitCommand => ({ ok: false, reason });
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    const next = command[i + 1];
    if (char === "\\") {
      if (next === "\n") i++;
      else if (next !== undefined) (word += next), (inWord = true), i++;
      continue;
    }
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return fail("an unterminated quote");
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
      continue;
    }
    if (char === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        const inner = command[j] as string;
        if (inner === "`" || (inner === "$" && command[j + 1] === "(")) return fail("a command substitution");
        if (inner === "$") literal = false;
        if (inner === "\\" && j + 1 < command.length && '"\\$`\n'.includes(command[j + 1] as string)) {
          if (command[j + 1] !== "\n") word += command[j + 1];
          j++;
          continue;
        }
        word += inner;
      }
      if (j >= command.length) return fail("an unterminated quote");
      inWord = true;
      i = j;
      continue;
    }
    if (char === "`" || (char === "$" && next === "(")) return fail("a command substitution");
    if (char === "(" || char === ")") return fail("a subshell");
    if (char === " " || char === "\t") {
      endWord();
      continue;
    }
    if (char === "#" && !inWord) {
      while (i + 1 < command.length && command[i + 1] !== "\n") i++;
      continue;
    }
    if (char === "\n" || char === ";" || char === "|" || (char === "&" && next !== ">")) {
      endPart();
      if ((char === "|" || char === "&" || char === ";") && (next === char || (char === "|" && next === "&"))) i++;
      continue;
    }
    if (char === ">" || char === "<" || char === "&") {
      // A word of digits just before is the file descriptor being redirected (`2>`), not an argument.
      if (inWord && /^\d+$/.test(word) && literal) (word = ""), (inWord = false);
      else endWord();
      const end = harmlessRedirection(command, i);
      if (end === undefined) return fail("a redirection");
      i = end;
      continue;
    }
    if (char === "$" || char === "*" || char === "?" || char === "[" || char === "{" || (char === "~" && !inWord)) literal = false;
    word += char;
    inWord = true;
  }
  endPart();
  return { ok: true, parts };
}

/**
 * The index of the last character of a harmless redirection starting at `start`; undefined for any
 * other. Conservative: a duplication only as `>&N` or `>&-` ending the word (bash reads `>&2x` as a
 * write to the file `2x`), output only to /dev/null, and no `<`, `<>`, `<&`, here-string or `>&word`.
 */
function harmlessRedirection(command: string, start: number): number | undefined {
  const duplicate = /^>&(\d+|-)(?=$|[ \t\n;&|])/.exec(command.slice(start));
  if (duplicate) return start + duplicate[0].length - 1;
  const toNull = /^(?:&>>?|>>?|>\|)[ \t]*(\S+)/.exec(command.slice(start));
  if (toNull && toNull[1] === HARMLESS_TARGET) return start + toNull[0].length - 1;
  return undefined;
}

function toPart(words: CommandWord[]): CommandPart {
  let first = 0;
  while (first < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[first] as CommandWord).text)) first++;
  return { assignments: words.slice(0, first).map((w) => w.text), words: words.slice(first) };
}

/** Shell words in front of a command that are not one (`if rm …; then rm …`). */
const KEYWORDS = new Set(["!", "{", "then", "do", "else", "elif", "if", "while", "until"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Every command a line could run, for deny rules: cut at every separator, substitution and bracket,
 * quotes dropped, assignments and keywords skipped, and the command after a runner's inline-code
 * option (`bash -xc "rm …"`, see runsInline; a plain `-c` after any command, as `docker exec ctr sh -c`)
 * or find's `-exec` taken too. Behind a wrapper
 * (COMMAND_WRAPPERS: `sudo`, `timeout 5`, `xargs -n1`, `busybox`) any later word could be the
 * command, so each is taken as a start; the wrapper itself is one too (`Bash(sudo:*)`). A command
 * named by its path is also taken by its name (`/bin/rm` is rm for `Bash(rm:*)`). Coarse on
 * purpose: a deny rule should rather refuse a harmless command than let `echo "$(rm -rf ~)"` through.
 * It is still not a sandbox (`$'\x72m'` is rm, and is not seen).
 */
export function denyView(command: string): string[][] {
  const views: string[][] = [];
  for (const segment of command.replace(/["'\\]/g, "").split(/\$\(|[;&|()`{}<>\n]/)) {
    const words = segment.split(/[ \t]+/).filter((w) => w !== "");
    let start = 0;
    while (start < words.length && (ASSIGNMENT.test(words[start] as string) || KEYWORDS.has(words[start] as string))) start++;
    const wrapper = words[start] === undefined ? undefined : wrapperOf(words[start] as string);
    const starts = [start];
    if (wrapper && wrapper.kind !== "runner") for (let i = start + 1; i < words.length; i++) starts.push(i);
    else {
      // The runner may come later (`docker exec ctr sh -xc …`, `nix develop -c …`): the latest one
      // named decides which options run inline code, and a plain `-c` counts after any command.
      let runner = wrapper;
      words.forEach((word, i) => {
        if (i > start) {
          if (word === "-c" || FIND_COMMAND_OPTIONS.includes(word) || (runner && runsInline(runner, word))) starts.push(i + 1);
          const named = wrapperOf(word);
          if (named?.kind === "runner") runner = named;
        }
      });
    }
    for (const at of starts) {
      const first = words[at];
      views.push(words.slice(at));
      if (first !== undefined && first.includes("/")) views.push([commandName(first), ...words.slice(at + 1)]);
    }
  }
  return views.filter((words) => words.length > 0);
}
