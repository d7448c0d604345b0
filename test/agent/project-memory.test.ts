import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findGitRoot, loadProjectMemory, MAX_MEMORY_FILE_BYTES, MAX_MEMORY_TOTAL_BYTES } from "../../src/agent/project-memory.ts";

let dir: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cat-code-memory-"));
  home = join(dir, "cat-code-home");
  mkdirSync(home);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A git repository at `dir/repo` with `a/b` inside it; the memory read from `a/b`. */
function nestedRepo(): { repo: string; cwd: string } {
  const repo = join(dir, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  const cwd = join(repo, "a", "b");
  mkdirSync(cwd, { recursive: true });
  return { repo, cwd };
}

test("nested folders: the user's AGENTS.md, then AGENTS.md and CLAUDE.md from the git root down to the working directory", () => {
  const { repo, cwd } = nestedRepo();
  write(join(dir, "AGENTS.md"), "above the git root: never read");
  write(join(home, "AGENTS.md"), "user");
  write(join(repo, "CLAUDE.md"), "root claude");
  write(join(repo, "AGENTS.md"), "root agents");
  write(join(repo, "a", "AGENTS.md"), "middle");
  write(join(cwd, "CLAUDE.md"), "leaf");
  const memory = loadProjectMemory({ cwd, home, userHome: dir });
  expect(memory.files.map((file) => [file.path, file.text])).toEqual([
    [join(home, "AGENTS.md"), "user"],
    [join(repo, "AGENTS.md"), "root agents"],
    [join(repo, "CLAUDE.md"), "root claude"],
    [join(repo, "a", "AGENTS.md"), "middle"],
    [join(cwd, "CLAUDE.md"), "leaf"],
  ]);
  expect(memory.warnings).toEqual([]);
  expect(memory.gitRoot).toBe(repo);
});

test("a git worktree's .git file marks the root as a folder does", () => {
  const repo = join(dir, "worktree");
  write(join(repo, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
  write(join(repo, "AGENTS.md"), "worktree memory");
  mkdirSync(join(repo, "src"));
  expect(findGitRoot(join(repo, "src"))).toBe(repo);
  expect(loadProjectMemory({ cwd: join(repo, "src"), home, userHome: dir }).files.map((f) => f.text)).toEqual(["worktree memory"]);
});

test("a memory file that cannot be read is a warning naming it; the others are still read", () => {
  const { repo, cwd } = nestedRepo();
  write(join(repo, "AGENTS.md"), "fine");
  // Tests may run as root, for whom no mode bit stops a read: a link to itself cannot be read by anyone.
  symlinkSync(join(repo, "a", "CLAUDE.md"), join(repo, "a", "CLAUDE.md"));
  mkdirSync(join(cwd, "AGENTS.md"));
  const memory = loadProjectMemory({ cwd, home, userHome: dir });
  expect(memory.files.map((f) => f.text)).toEqual(["fine"]);
  expect(memory.warnings).toEqual([
    `${join(repo, "a", "CLAUDE.md")}: could not be read (ELOOP); left out of the memory files`,
    `${join(cwd, "AGENTS.md")}: left out: not a regular file`,
  ]);
});

test("a FIFO named AGENTS.md (a cloned repository can ship one) is left out at once, not waited on", () => {
  const { repo, cwd } = nestedRepo();
  write(join(repo, "CLAUDE.md"), "read me");
  expect(Bun.spawnSync(["mkfifo", join(cwd, "AGENTS.md")]).exitCode).toBe(0);
  const memory = loadProjectMemory({ cwd, home, userHome: dir });
  expect(memory.files.map((f) => f.text)).toEqual(["read me"]);
  expect(memory.warnings).toEqual([`${join(cwd, "AGENTS.md")}: left out: not a regular file`]);
});

test("a huge file is cut to 40 KB with the cut marked; the total stays within 120 KB", () => {
  const { repo, cwd } = nestedRepo();
  write(join(repo, "AGENTS.md"), "x".repeat(5 * 1024 * 1024));
  write(join(repo, "CLAUDE.md"), "y".repeat(MAX_MEMORY_FILE_BYTES));
  write(join(repo, "a", "AGENTS.md"), "z".repeat(MAX_MEMORY_FILE_BYTES));
  write(join(cwd, "AGENTS.md"), "never reached");
  const memory = loadProjectMemory({ cwd, home, userHome: dir });
  expect(memory.files[0]).toMatchObject({ path: join(repo, "AGENTS.md"), bytes: 5 * 1024 * 1024, cut: true });
  expect(memory.files[0]!.text.length).toBe(MAX_MEMORY_FILE_BYTES);
  expect(memory.files.map((f) => f.cut)).toEqual([true, false, false]);
  expect(memory.files.reduce((sum, f) => sum + f.text.length, 0)).toBe(MAX_MEMORY_TOTAL_BYTES);
  expect(memory.warnings).toEqual([`${join(cwd, "AGENTS.md")}: left out: the memory files already reach 120 KB in all`]);
});

test("a cut never splits a character in two", () => {
  const { repo, cwd } = nestedRepo();
  // 3-byte characters: 40 KB is not a multiple of 3, so the byte limit falls inside one.
  write(join(repo, "AGENTS.md"), "你".repeat(MAX_MEMORY_FILE_BYTES));
  const [file] = loadProjectMemory({ cwd, home, userHome: dir }).files;
  expect(file!.cut).toBe(true);
  expect(file!.text).toBe("你".repeat(Math.floor(MAX_MEMORY_FILE_BYTES / 3)));
});

test("a project's memory file that links outside the project is left out with a warning", () => {
  const { repo, cwd } = nestedRepo();
  const secret = write(join(dir, "id_rsa"), "PRIVATE KEY");
  symlinkSync(secret, join(cwd, "AGENTS.md"));
  write(join(repo, "docs", "agents.md"), "shared text");
  symlinkSync(join(repo, "docs", "agents.md"), join(repo, "AGENTS.md"));
  const memory = loadProjectMemory({ cwd, home, userHome: dir });
  expect(memory.files.map((f) => f.text)).toEqual(["shared text"]);
  expect(memory.warnings).toEqual([`${join(cwd, "AGENTS.md")}: left out: it links to ${secret}, outside ${repo}`]);
  expect(JSON.stringify(memory)).not.toContain("PRIVATE KEY");
});

test("no git root, inside the home folder: the walk stops at the home folder", () => {
  const userHome = join(dir, "home", "me");
  const cwd = join(userHome, "notes", "today");
  mkdirSync(cwd, { recursive: true });
  write(join(dir, "home", "AGENTS.md"), "above home: never read");
  write(join(userHome, "AGENTS.md"), "home");
  write(join(cwd, "AGENTS.md"), "today");
  const memory = loadProjectMemory({ cwd, home, userHome });
  expect(memory.files.map((f) => f.text)).toEqual(["home", "today"]);
  expect(memory.gitRoot).toBeUndefined();
});

test("no git root, outside the home folder: only the working directory's own files", () => {
  const cwd = join(dir, "shared", "work");
  mkdirSync(cwd, { recursive: true });
  write(join(dir, "shared", "AGENTS.md"), "anyone could have put this here");
  write(join(cwd, "CLAUDE.md"), "here");
  const memory = loadProjectMemory({ cwd, home, userHome: join(dir, "home", "me") });
  expect(memory.files.map((f) => f.text)).toEqual(["here"]);
});

test("CAT_CODE_HOME inside the project: its AGENTS.md is read once", () => {
  const { repo, cwd } = nestedRepo();
  write(join(repo, "AGENTS.md"), "one file");
  const memory = loadProjectMemory({ cwd, home: repo, userHome: dir });
  expect(memory.files.map((f) => f.path)).toEqual([join(repo, "AGENTS.md")]);
});
