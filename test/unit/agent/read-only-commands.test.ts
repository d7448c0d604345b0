import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readOnlyCommand } from "../../../src/agent/read-only-commands.ts";

const project = mkdtempSync(join(tmpdir(), "read-only-"));
const outside = mkdtempSync(join(tmpdir(), "read-only-outside-"));
mkdirSync(join(project, "src"));
writeFileSync(join(project, "src", "a.ts"), "a");
writeFileSync(join(outside, "secret"), "s");
symlinkSync(outside, join(project, "src", "link"));
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const readOnly = async (command: string) => (await readOnlyCommand(command, project)).readOnly;

describe("read-only commands run without asking", () => {
  const allowed = [
    "ls",
    "ls -la src",
    "pwd",
    "echo hello world",
    "seq 1 10",
    "cat src/a.ts",
    "head -n 5 src/a.ts",
    "tail -20 src/a.ts",
    "wc -l src/*.ts",
    "grep -rn TODO src",
    "rg -n 'foo|bar' src",
    "find . -name '*.ts' -type f",
    "git status",
    "git status --short",
    "git log --oneline -5",
    "git --no-pager log -p -- src",
    "git diff HEAD~3",
    "git show HEAD:src/a.ts",
    "git branch",
    "git branch -a -v",
    "git branch --list 'feat*'",
    "cat src/*.ts",
    "git rev-parse --show-toplevel",
    "ls src && cat src/a.ts",
    "cat src/a.ts | grep a | wc -l",
    "ls; pwd",
    "ls || echo none",
    "ls src 2>/dev/null",
    "grep x src/a.ts 2>&1",
    "sort src/a.ts | uniq -c",
    "ls\npwd",
    // options on each command's allow-list; a long one also by an unambiguous prefix, as GNU reads it
    "sort -k2 -t, -rn src/a.ts",
    "sort --key=2 --rev src/a.ts",
    "ls -la --color=never src",
    "grep -C3 -i --line-number x src/a.ts",
    "head -5 src/a.ts",
    "tail -n +2 src/a.ts",
    "find . -mtime -7 -type f -not -path './node_modules/*' -print",
    "git log --stat --format=%H -3 -- src",
    "git diff --cached --name-only",
    "git show --stat HEAD",
    "git status -uno",
    "git blame -L 1,1 src/a.ts",
    "date +%s",
    "date -u -d yesterday",
    "du -sh src",
    "diff -u src/a.ts src/a.ts",
    "sha256sum src/a.ts",
    "wc -l src/a*",
    "cat src/*.ts src/?.ts",
    "echo src/*",
    // duplications that end their word
    "echo hi >&2",
    "echo hi 1>&2; ls 2>&1 >&-",
  ];
  for (const command of allowed) test(JSON.stringify(command), async () => expect(await readOnly(command)).toBe(true));
});

describe("anything that could write, run another program or read outside the project asks", () => {
  const asked = [
    // find's actions
    "find . -exec rm {} ;",
    "find . -name x -execdir sh -c id \\;",
    "find . -ok rm {} \\;",
    "find . -delete",
    "find . -fprint out.txt",
    "find . -fprintf out.txt %p",
    "find . -fls out.txt",
    // git's options that run programs or move it elsewhere
    "git -c core.pager=touch\\ PWNED log",
    "git -c core.pager='sh -c id' log",
    "git --exec-path=/tmp log",
    "git -C /etc log",
    "git --git-dir=/tmp/x status",
    "git --paginate log",
    "git diff --output=PWNED",
    "git log --output PWNED",
    "git diff --ext-diff",
    "GIT_PAGER=touch\\ x git log",
    "GIT_EXTERNAL_DIFF=./x git diff",
    "git branch new-branch",
    "git branch -D main",
    "git branch -m old new",
    "git branch --set-upstream-to=origin/main",
    "git commit -m x",
    "git push",
    "git checkout .",
    "git",
    // redirections
    "echo hi > out.txt",
    "echo hi >> out.txt",
    "ls &> out.txt",
    "ls 2> errors.txt",
    "ls >| out.txt",
    "cat < /etc/passwd",
    "cat <<EOF\nhi\nEOF",
    // substitutions, expansions the text does not show
    "echo $(rm -rf x)",
    "echo `rm -rf x`",
    "cat <(rm x)",
    "ls \"$(touch x)\"",
    "$CMD",
    "$(echo rm) x",
    "cat $HOME/.ssh/id_rsa",
    "cat ~/.ssh/id_rsa",
    "cat {/etc/passwd,src/a.ts}",
    // a glob where a file named like an option would act (`--pre=./x`, `-delete`)
    "rg foo *",
    "find *",
    "sort *",
    "grep -n x src/*",
    "rg --hostname-bin=./x foo",
    "(ls)",
    "{ ls; }",
    // compound commands with one writer
    "ls;rm -rf x",
    "ls && rm -rf x",
    "ls || rm -rf x",
    "ls | sh",
    "ls\nrm -rf x",
    "ls & rm x",
    "cat src/a.ts | tee copy.ts",
    // writers and program runners
    "sort -o out.txt src/a.ts",
    "sort -uo out.txt src/a.ts",
    "sort --output=out.txt src/a.ts",
    "sort --compress-program=sh src/a.ts",
    "uniq src/a.ts out.txt",
    "sed -i s/a/b/ src/a.ts",
    "sed -n p src/a.ts",
    "awk '{print}' src/a.ts",
    "tee out.txt",
    "less src/a.ts",
    "more src/a.ts",
    "vi src/a.ts",
    "rg --pre ./x foo",
    "rg --pre=./x foo",
    "tree -o out.txt",
    "date -s 2020-01-01",
    "touch x",
    "rm x",
    "mkdir x",
    "cp a b",
    // prefixes that run what follows
    "eval ls",
    "env ls",
    "env PATH=. ls",
    "xargs cat",
    "ls | xargs rm",
    "sudo ls",
    "timeout 5 ls",
    "exec ls",
    "command ls",
    "bash -c ls",
    "sh -c 'ls'",
    "PATH=. ls",
    // a command named by its path may be the project's own
    "./ls",
    "/bin/ls /etc",
    "src/ls",
    // paths outside the project, also through a symlink
    "cat /etc/passwd",
    "ls ..",
    "ls ../",
    "cat ../../etc/passwd",
    "grep -r root /etc",
    "find / -name passwd",
    "cat src/link/secret",
    "ls src/link",
    "grep -f/etc/passwd src/a.ts",
    "grep --file=/etc/passwd src/a.ts",
    "head -c 10 -- /etc/passwd",
    // abbreviated long options: GNU takes any unambiguous prefix, so a prefix of a refused one is that one
    "sort --o=.git/config src/a.ts",
    "sort --outp=out.txt src/a.ts",
    "sort -S 1 --compress-prog=sh src/a.ts src/a.ts",
    "sort --temp=. src/a.ts",
    "file --comp",
    "date --se=2020-01-01",
    "date --s 2020-01-01",
    "git log --outp=x",
    "git diff --ext",
    "git diff --textc",
    "tail --fo src/a.ts",
    // options on no allow-list ask, whatever they would do
    "sort --no-such-option src/a.ts",
    "ls --no-such-option",
    "grep --no-such-option x src/a.ts",
    "git status --no-such-option",
    "git log --show-signature",
    "git log -pO order.txt",
    "file -z src/a.ts",
    "file --no-sandbox src/a.ts",
    "tree -R",
    "tree -l",
    "find . -newer src/a.ts -fstype x -no-such-primary",
    // lists of files to read, read from a file
    "sort --files0-from=list src/a.ts",
    "wc --files0-from=list",
    "wc --files0=list",
    "du --files0-from=list",
    "file -f list",
    "file --files-from list",
    "sha256sum -c sums",
    "sha256sum --check sums",
    "md5sum --ch sums",
    "find . -files0-from list",
    "du -X list src",
    // symlinks followed out of the project while recursing, and commands that never end
    "grep -R x src",
    "grep -rR x .",
    "grep --dereference-recursive x .",
    "rg --follow x",
    "rg -L x",
    "rg -iL x",
    "find -L . -name x",
    "find . -follow",
    "du -L src",
    "du --dereference src",
    "ls -RL src",
    "ls --deref src",
    "diff -r src src",
    "diff --recursive src src",
    "diff -ru src src",
    "diff -l src/a.ts src/a.ts",
    "diff src src",
    "diff -u src/a.ts src/link",
    "tail -f src/a.ts",
    "tail -qf src/a.ts",
    "tail -F src/a.ts",
    "tail --follow src/a.ts",
    // a glob at a word's start may expand to a file named like an option (`--files0-from=x`, `-RL`, `-f`)
    "wc *",
    "ls *",
    "tail ?",
    "stat [-]*",
    // a glob that may expand to a symlink leading out of the project (src/link), or through folders
    "cat src/*",
    "ls src/l*",
    "head src/?ink",
    "wc -l src/[l]ink",
    "cat src/*/secret",
    // redirections bash reads as writes to a file
    "echo -e 'touch /tmp/x' >&2c",
    "echo hi >&2x",
    "echo hi 1>&2x",
    "echo hi 2>&1x",
    "echo hi >&out.txt",
    "echo hi >& out.txt",
    "echo hi >&2>x",
    "cat <> src/a.ts",
    "cat <<< hi",
    "cat <&0",
    "ls >/dev/null.x",
    // unreadable
    "echo 'unterminated",
    "",
  ];
  for (const command of asked) test(JSON.stringify(command), async () => expect(await readOnly(command)).toBe(false));
});

test("the verdict says why a command is asked about", async () => {
  expect(await readOnlyCommand("find . -delete", project)).toEqual({ readOnly: false, why: "find -delete writes or runs a command" });
  expect(await readOnlyCommand("cat /etc/passwd", project)).toEqual({ readOnly: false, why: "/etc/passwd is outside the project", outside: true });
  expect(await readOnlyCommand("ls; rm x", project)).toEqual({ readOnly: false, why: "rm is not on the read-only list" });
  expect(await readOnlyCommand("sort --outp=x src/a.ts", project)).toEqual({ readOnly: false, why: "sort --outp writes a file (it abbreviates --output)" });
  expect(await readOnlyCommand("grep -R x src", project)).toEqual({ readOnly: false, why: "grep -R follows symlinks, so it may read outside the project" });
  expect(await readOnlyCommand("ls --frobnicate", project)).toEqual({ readOnly: false, why: "ls --frobnicate is not an option cat-code knows to be read-only" });
  expect(await readOnlyCommand("echo hi >&2x", project)).toEqual({ readOnly: false, why: "it holds a redirection" });
  expect(await readOnlyCommand("cat src/*", project)).toEqual({ readOnly: false, why: "src/* may expand to src/link, which leads outside the project", outside: true });
});
