import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, mkdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { BashTool } from "../../../src/agent/tools/bash-tool.ts";
import { EditFileTool } from "../../../src/agent/tools/edit-file-tool.ts";
import { GlobTool } from "../../../src/agent/tools/glob-tool.ts";
import { GrepTool } from "../../../src/agent/tools/grep-tool.ts";
import { TOOL_OUTPUT_LIMIT } from "../../../src/agent/tools/output-limit.ts";
import { MAX_READ_BYTES, ReadFileTool } from "../../../src/agent/tools/read-file-tool.ts";
import { WriteFileTool } from "../../../src/agent/tools/write-file-tool.ts";
import { waitFor } from "../../helpers/wait-for.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cat-code-tools-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A zombie counts as dead: where PID 1 does not reap (some containers), killed orphans linger as zombies. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

describe("built-in tools", () => {
  test("the set: names, read-only marks, object schemas", () => {
    const tools = createBuiltinTools({ cwd: dir });
    expect(tools.map((t) => [t.name, t.isReadOnly])).toEqual([
      ["bash", false],
      ["read_file", true],
      ["write_file", false],
      ["edit_file", false],
      ["glob", true],
      ["grep", true],
      ["todo_write", false],
      ["web_fetch", true],
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description.length).toBeGreaterThan(40);
    }
  });

  test("invalid input is an error result naming the field", async () => {
    const result = await new ReadFileTool(dir).execute({ path: 42 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("invalid input for read_file: path");
  });
});

describe("bash", () => {
  test("runs in the working directory and reports output and exit code", async () => {
    const result = await new BashTool({ cwd: dir }).execute({ command: "pwd; echo oops >&2; exit 3" });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(`${dir}\n[stderr]\noops\n[exit code: 3]`);
  });

  test("a zero exit is not an error", async () => {
    expect(await new BashTool({ cwd: dir }).execute({ command: "echo hi" })).toEqual({ content: "hi\n[exit code: 0]", isError: false });
  });

  test("a timeout kills the whole process tree", async () => {
    const pidFile = join(dir, "pid");
    const started = performance.now();
    const result = await new BashTool({ cwd: dir }).execute({ command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout_ms: 300 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("[timed out after 300 ms; the process tree was killed]");
    const grandchild = Number((await readFile(pidFile, "utf8")).trim());
    await waitFor(() => !processAlive(grandchild), "the background sleep to be killed", { timeoutMs: 5_000 });
  });

  test("an abort kills the process tree and says it was cancelled", async () => {
    const controller = new AbortController();
    const marker = join(dir, "started");
    const running = new BashTool({ cwd: dir }).execute({ command: `echo started; touch ${marker}; sleep 30` }, { signal: controller.signal });
    await waitFor(() => existsSync(marker), "the command to start");
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.content).toBe("started\n[cancelled by the user; the process tree was killed]");
  });

  test("an abort before it starts runs nothing", async () => {
    const result = await new BashTool({ cwd: dir }).execute({ command: `touch ${join(dir, "ran")}` }, { signal: AbortSignal.abort() });
    expect(result).toEqual({ content: "Error: cancelled by the user before it started", isError: true });
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });

  test("past what it keeps in memory it keeps the head and the tail, and says how much of the middle was dropped", async () => {
    const result = await new BashTool({ cwd: dir, outputLimit: 1000 }).execute({ command: "head -c 5000 /dev/zero | tr '\\0' x; echo; echo the error at the end" });
    expect(result.content.startsWith(`${"x".repeat(1000)}\n[… 3,022 characters not kept …]\n`)).toBe(true);
    expect(result.content).toEndWith("x\nthe error at the end\n[exit code: 0]");
  });

  test("output over TOOL_OUTPUT_LIMIT comes whole from the tool (the tool runner cuts it for the model)", async () => {
    const result = await new BashTool({ cwd: dir }).execute({ command: `head -c ${TOOL_OUTPUT_LIMIT + 10} /dev/zero | tr '\\0' x` });
    expect(result.content).toBe(`${"x".repeat(TOOL_OUTPUT_LIMIT + 10)}\n[exit code: 0]`);
  });

  test("the permission question shows the command first, and the rest after", async () => {
    const preview = await new BashTool({ cwd: dir }).preview({ description: "d".repeat(500), command: "ls" });
    expect(preview).toEqual({ kind: "command", command: "ls", rest: { description: "d".repeat(500) } });
  });

  test("a background process holding the pipe does not hang the call", async () => {
    const started = performance.now();
    // A hang would last the 10 s of the background sleep; the bound only has to tell that apart.
    const result = await new BashTool({ cwd: dir }).execute({ command: "(sleep 10; echo late) & echo now" });
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(result.content).toContain("now");
    expect(result.content).toContain("[exit code: 0]");
  });

  test("cat-code's API key is not passed to commands", async () => {
    process.env.ANTHROPIC_API_KEY_TEST_MARKER = "1";
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "sk-secret";
    try {
      const result = await new BashTool({ cwd: dir }).execute({ command: 'echo "key=[${ANTHROPIC_API_KEY:-}]"' });
      expect(result.content).toContain("key=[]");
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      delete process.env.ANTHROPIC_API_KEY_TEST_MARKER;
    }
  });
});

describe("read_file", () => {
  test("numbers lines and honours offset and limit", async () => {
    await writeFile(join(dir, "a.txt"), "one\ntwo\nthree\nfour\n");
    const tool = new ReadFileTool(dir);
    expect((await tool.execute({ path: "a.txt" })).content).toBe("     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour");
    const part = await tool.execute({ path: join(dir, "a.txt"), offset: 2, limit: 2 });
    expect(part.content).toBe("     2\ttwo\n     3\tthree\n[lines 2-3 of 4; use offset 4 to read on]");
  });

  test("a missing file, a directory and an offset past the end are errors", async () => {
    const tool = new ReadFileTool(dir);
    expect(await tool.execute({ path: "nope.txt" })).toEqual({ content: "Error: nope.txt does not exist", isError: true });
    expect((await tool.execute({ path: "." })).content).toContain("is a directory");
    await writeFile(join(dir, "short.txt"), "x\n");
    expect((await tool.execute({ path: "short.txt", offset: 5 })).content).toContain("offset 5 is past the end");
  });

  test("refuses binary files", async () => {
    await writeFile(join(dir, "bin"), new Uint8Array([1, 0, 2]));
    expect((await new ReadFileTool(dir).execute({ path: "bin" })).content).toContain("looks binary");
  });

  test("refuses /dev/zero, and a symlink to it, at once instead of reading forever", async () => {
    await symlink("/dev/zero", join(dir, "zero"));
    const tool = new ReadFileTool(dir);
    expect(await tool.execute({ path: "/dev/zero" })).toEqual({
      content: "Error: /dev/zero is not a regular file (a character device); only regular files can be read",
      isError: true,
    });
    expect((await tool.execute({ path: "zero" })).content).toBe("Error: zero is not a regular file (a character device); only regular files can be read");
  });

  test("refuses a FIFO instead of hanging on it", async () => {
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    const result = await new ReadFileTool(dir).execute({ path: "pipe" });
    expect(result).toEqual({ content: "Error: pipe is not a regular file (a FIFO); only regular files can be read", isError: true });
  });

  test("a file over MAX_READ_BYTES is refused with its size", async () => {
    await writeFile(join(dir, "big.txt"), "x".repeat(MAX_READ_BYTES + 1));
    expect((await new ReadFileTool(dir).execute({ path: "big.txt" })).content).toBe(
      `Error: big.txt is ${MAX_READ_BYTES + 1} bytes, too large to read; use grep, or bash with head or sed`,
    );
  });

  test("what it returns is cut at TOOL_OUTPUT_LIMIT", async () => {
    await writeFile(join(dir, "wide.txt"), `${"y".repeat(1_000)}\n`.repeat(200));
    const result = await new ReadFileTool(dir).execute({ path: "wide.txt" });
    expect(result.content).toContain(`[output cut: `);
    expect(result.content.indexOf("\n\n[output cut")).toBe(TOOL_OUTPUT_LIMIT);
  });

  test("an abort while it reads stops it", async () => {
    await writeFile(join(dir, "large.txt"), "z\n".repeat(4 * 1024 * 1024));
    const controller = new AbortController();
    // execute runs up to its first await, so the abort lands while the read is under way.
    const reading = new ReadFileTool(dir).execute({ path: "large.txt" }, { signal: controller.signal });
    controller.abort();
    expect(await reading).toEqual({ content: "Error: cancelled by the user", isError: true });
  });
});

describe("write_file", () => {
  test("an abort before it writes leaves nothing behind", async () => {
    const result = await new WriteFileTool(dir).execute({ path: "new.txt", content: "x" }, { signal: AbortSignal.abort() });
    expect(result).toEqual({ content: "Error: cancelled by the user; nothing was written", isError: true });
    expect(existsSync(join(dir, "new.txt"))).toBe(false);
  });

  test("refuses to write into a FIFO instead of blocking on it", async () => {
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    expect((await new WriteFileTool(dir).execute({ path: "pipe", content: "x" })).content).toContain("not a regular file");
  });

  test("the question shows a new file as a diff from /dev/null, and a replacement as a diff", async () => {
    const tool = new WriteFileTool(dir);
    expect(await tool.preview({ path: "n.txt", content: "a\n" })).toEqual({
      kind: "file-change",
      path: "n.txt",
      diff: "--- /dev/null\n+++ n.txt\n@@ -0,0 +1 @@\n+a",
      note: "a new file",
    });
    await writeFile(join(dir, "n.txt"), "a\nb\n");
    expect(await tool.preview({ path: "n.txt", content: "a\nc\n" })).toEqual({
      kind: "file-change",
      path: "n.txt",
      diff: "--- n.txt\n+++ n.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c",
    });
  });

  test("the question says when the path is a symlink, and where it leads", async () => {
    await writeFile(join(dir, "real.txt"), "a\n");
    await symlink(join(dir, "real.txt"), join(dir, "notes.md"));
    const preview = await new WriteFileTool(dir).preview({ path: "notes.md", content: "b\n" });
    expect(preview).toMatchObject({ kind: "file-change", path: "notes.md", note: `a symlink to ${await realpath(join(dir, "real.txt"))}` });
  });

  test("creates parent directories, then replaces", async () => {
    const tool = new WriteFileTool(dir);
    expect((await tool.execute({ path: "deep/new.txt", content: "a\nb\n" })).content).toBe("Created deep/new.txt (2 line(s), 4 bytes)");
    expect(await readFile(join(dir, "deep/new.txt"), "utf8")).toBe("a\nb\n");
    expect((await tool.execute({ path: "deep/new.txt", content: "c" })).content).toBe("Replaced deep/new.txt (1 line(s), 1 bytes)");
    expect(await readFile(join(dir, "deep/new.txt"), "utf8")).toBe("c");
  });
});

describe("edit_file", () => {
  test("an abort leaves the file as it was", async () => {
    await writeFile(join(dir, "f.txt"), "one\n");
    const result = await new EditFileTool(dir).execute({ path: "f.txt", old_string: "one", new_string: "two" }, { signal: AbortSignal.abort() });
    expect(result.content).toBe("Error: cancelled by the user");
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("one\n");
  });

  test("refuses a FIFO instead of hanging on it", async () => {
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    expect((await new EditFileTool(dir).execute({ path: "pipe", old_string: "a", new_string: "b" })).content).toContain("not a regular file (a FIFO)");
  });

  test("the question shows the edit as a diff; an edit that will fail says so and shows both strings", async () => {
    await writeFile(join(dir, "f.ts"), "const a = 1;\nconst b = 2;\n");
    const tool = new EditFileTool(dir);
    expect(await tool.preview({ path: "f.ts", old_string: "b = 2", new_string: "b = 3" })).toEqual({
      kind: "file-change",
      path: "f.ts",
      diff: "--- f.ts\n+++ f.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;",
    });
    expect(await tool.preview({ path: "f.ts", old_string: "zzz", new_string: "yyy" })).toEqual({
      kind: "file-change",
      path: "f.ts",
      diff: "--- f.ts\n+++ f.ts\n@@ -1 +1 @@\n-zzz\n\\ No newline at end of file\n+yyy\n\\ No newline at end of file",
      note: "old_string was not found in f.ts; read the file and copy the text exactly; the edit will fail (old_string → new_string shown)",
    });
  });

  test("replaces exactly one occurrence, literally", async () => {
    await writeFile(join(dir, "f.ts"), "const a = 1;\nconst b = 2;\n");
    const result = await new EditFileTool(dir).execute({ path: "f.ts", old_string: "b = 2", new_string: "b = $&3" });
    expect(result).toEqual({ content: "Edited f.ts: 1 replacement(s) at line 2", isError: false });
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("const a = 1;\nconst b = $&3;\n");
  });

  test("fails on zero matches and on several, leaving the file alone", async () => {
    const original = "x = 1\nx = 1\n";
    await writeFile(join(dir, "g.txt"), original);
    const tool = new EditFileTool(dir);
    const none = await tool.execute({ path: "g.txt", old_string: "y", new_string: "z" });
    expect(none.isError).toBe(true);
    expect(none.content).toContain("not found");
    const several = await tool.execute({ path: "g.txt", old_string: "x = 1", new_string: "x = 2" });
    expect(several.isError).toBe(true);
    expect(several.content).toContain("occurs 2 times");
    expect(await readFile(join(dir, "g.txt"), "utf8")).toBe(original);
    expect((await tool.execute({ path: "g.txt", old_string: "x = 1", new_string: "x = 2", replace_all: true })).isError).toBe(false);
    expect(await readFile(join(dir, "g.txt"), "utf8")).toBe("x = 2\nx = 2\n");
  });
});

describe("glob and grep", () => {
  beforeEach(async () => {
    await mkdir(join(dir, "src/sub"), { recursive: true });
    await mkdir(join(dir, "node_modules/pkg"), { recursive: true });
    await writeFile(join(dir, "src/a.ts"), "export const answer = 42;\n");
    await writeFile(join(dir, "src/sub/b.ts"), "// TODO: fix\nconst Answer = 'x';\n");
    await writeFile(join(dir, "src/c.md"), "answer in prose\n");
    await writeFile(join(dir, "node_modules/pkg/index.ts"), "answer\n");
    await writeFile(join(dir, "src/blob.bin"), new Uint8Array([97, 110, 115, 0, 119]));
  });

  test("glob lists matching files sorted, skipping node_modules", async () => {
    const result = await new GlobTool(dir).execute({ pattern: "**/*.ts" });
    expect(result).toEqual({ content: "src/a.ts\nsrc/sub/b.ts", isError: false });
    expect((await new GlobTool(dir).execute({ pattern: "*.ts", path: "src" })).content).toBe("src/a.ts");
    expect((await new GlobTool(dir).execute({ pattern: "**/*.py" })).content).toContain("No files match");
  });

  test("grep finds lines by regex with path:line:text", async () => {
    const tool = new GrepTool(dir);
    expect((await tool.execute({ pattern: "answer" })).content).toBe("src/a.ts:1:export const answer = 42;\nsrc/c.md:1:answer in prose");
    expect((await tool.execute({ pattern: "^const \\w+ =", glob: "*.ts" })).content).toBe("src/sub/b.ts:2:const Answer = 'x';");
    expect((await tool.execute({ pattern: "answer", ignore_case: true, path: "src/sub" })).content).toBe("src/sub/b.ts:2:const Answer = 'x';");
    expect((await tool.execute({ pattern: "answer", max_results: 1 })).content).toContain("[stopped at 1 matching lines");
  });

  test("grep reports a bad regex as an error", async () => {
    const result = await new GrepTool(dir).execute({ pattern: "(" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("invalid regular expression");
  });

  test("grep and glob leave out what .gitignore ignores, at any level, and honour its negations", async () => {
    await writeFile(join(dir, ".gitignore"), "dist/\n*.log\n!keep.log\n");
    await mkdir(join(dir, "dist"), { recursive: true });
    await writeFile(join(dir, "dist/out.ts"), "answer from a build\n");
    await writeFile(join(dir, "src/debug.log"), "answer in a log\n");
    await writeFile(join(dir, "src/keep.log"), "answer kept\n");
    await writeFile(join(dir, "src/sub/.gitignore"), "generated.ts\n");
    await writeFile(join(dir, "src/sub/generated.ts"), "const answer = 0;\n");
    const grep = new GrepTool(dir);
    expect((await grep.execute({ pattern: "answer" })).content).toBe("src/a.ts:1:export const answer = 42;\nsrc/c.md:1:answer in prose\nsrc/keep.log:1:answer kept");
    // From inside a subfolder, the project's .gitignore still applies.
    expect((await grep.execute({ pattern: "answer", path: "src" })).content).toContain("src/keep.log");
    expect((await grep.execute({ pattern: "answer", path: "src" })).content).not.toContain("debug.log");
    expect((await new GlobTool(dir).execute({ pattern: "**/*" })).content).toBe("src/a.ts\nsrc/c.md\nsrc/blob.bin\nsrc/keep.log\nsrc/sub/b.ts".split("\n").sort().join("\n"));
  });

  test("grep skips binary files and does not follow symlinks out of the tree", async () => {
    const outside = await mkdtemp(join(tmpdir(), "cat-code-outside-"));
    try {
      await writeFile(join(outside, "secret.txt"), "answer outside\n");
      await symlink(join(outside, "secret.txt"), join(dir, "src/link.txt"));
      await symlink(outside, join(dir, "src/linked-dir"));
      const content = (await new GrepTool(dir).execute({ pattern: "ans" })).content;
      expect(content).not.toContain("blob.bin");
      expect(content).not.toContain("outside");
      expect((await new GlobTool(dir).execute({ pattern: "**/*.txt" })).content).toContain("No files match");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  test("an abort during the walk stops grep and glob", async () => {
    for (let i = 0; i < 300; i++) {
      await mkdir(join(dir, `many/d${i}`), { recursive: true });
      await writeFile(join(dir, `many/d${i}/f.ts`), "answer\n");
    }
    for (const tool of [new GrepTool(dir), new GlobTool(dir)]) {
      const controller = new AbortController();
      // execute runs up to its first await, so the abort lands while the walk is under way.
      const running = tool.execute({ pattern: tool.name === "grep" ? "answer" : "**/*.ts" }, { signal: controller.signal });
      controller.abort();
      expect(await running).toEqual({ content: "Error: cancelled by the user", isError: true });
    }
  });
});
