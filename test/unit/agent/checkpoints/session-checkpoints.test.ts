import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionCheckpoints } from "../../../../src/agent/checkpoints/session-checkpoints.ts";
import { EditFileTool } from "../../../../src/agent/tools/edit-file-tool.ts";
import { WriteFileTool } from "../../../../src/agent/tools/write-file-tool.ts";
import { tempDir } from "../../../helpers/paths.ts";

let work: string;
let session: string;
let outside: string;
beforeEach(() => {
  work = realpathSync(tempDir("cat-code-checkpoints-work-"));
  session = join(realpathSync(tempDir("cat-code-checkpoints-home-")), "session-id");
  outside = realpathSync(tempDir("cat-code-checkpoints-outside-"));
});
afterEach(() => {
  for (const dir of [work, session, outside]) rmSync(dir, { recursive: true, force: true });
});

/** The session's checkpoints and the two file tools reporting to them, as the REPL wires them. */
function tools(options: { maxBytes?: number } = {}) {
  let minute = 0;
  const checkpoints = new SessionCheckpoints({ sessionFolder: () => session, maxBytes: options.maxBytes, now: () => new Date(Date.UTC(2026, 0, 1, 10, minute++)) });
  const write = new WriteFileTool(work, checkpoints);
  const edit = new EditFileTool(work, checkpoints);
  return { checkpoints, write: (path: string, content: string) => write.execute({ path, content }), edit: (path: string, from: string, to: string) => edit.execute({ path, old_string: from, new_string: to }) };
}

const read = (name: string) => readFileSync(join(work, name), "utf8");

test("a rewind puts files back as they were before the chosen prompt: created ones removed, changed ones restored", async () => {
  writeFileSync(join(work, "kept.txt"), "original\n");
  const { checkpoints, write, edit } = tools();
  checkpoints.beginPrompt("first prompt", []);
  await write("new/created.txt", "made by the first prompt\n");
  await edit("kept.txt", "original", "first");
  await edit("kept.txt", "first", "first again");
  checkpoints.beginPrompt("second prompt", []);
  await edit("kept.txt", "first again", "second");
  await write("second.txt", "by the second\n");

  const [second, first] = checkpoints.prompts();
  expect([second!.text, second!.files.length, first!.text, first!.files.length]).toEqual(["second prompt", 2, "first prompt", 2]);
  expect(second!.time.toISOString()).toBe("2026-01-01T10:01:00.000Z");

  const toSecond = await checkpoints.rewindFiles(second!);
  expect(toSecond).toMatchObject({ restored: [join(work, "kept.txt")], removed: [join(work, "second.txt")], changedOutside: [], skipped: [], notKept: [] });
  expect(read("kept.txt")).toBe("first again\n");
  expect(existsSync(join(work, "second.txt"))).toBe(false);
  expect(read("new/created.txt")).toBe("made by the first prompt\n");

  const toFirst = await checkpoints.rewindFiles(first!);
  expect(toFirst.removed).toEqual([join(work, "new/created.txt")]);
  expect(read("kept.txt")).toBe("original\n");
  // Nothing the files' rewinds wrote looks like a change made outside cat-code.
  expect(toFirst.changedOutside).toEqual([]);
});

test("a file changed outside cat-code since is still restored, and named", async () => {
  writeFileSync(join(work, "a.txt"), "one\n");
  const { checkpoints, edit } = tools();
  checkpoints.beginPrompt("edit a", []);
  await edit("a.txt", "one", "two");
  writeFileSync(join(work, "a.txt"), "changed in an editor\n");
  const report = await checkpoints.rewindFiles(checkpoints.prompts()[0]!);
  expect(report.changedOutside).toEqual([join(work, "a.txt")]);
  expect(report.restored).toEqual([join(work, "a.txt")]);
  expect(read("a.txt")).toBe("one\n");
});

test("the mode comes back with the content, exactly: an executable stays executable, a group-writable file too whatever the umask", async () => {
  writeFileSync(join(work, "run.sh"), "echo one\n");
  chmodSync(join(work, "run.sh"), 0o755);
  writeFileSync(join(work, "shared.txt"), "one\n");
  chmodSync(join(work, "shared.txt"), 0o666);
  const { checkpoints, edit } = tools();
  checkpoints.beginPrompt("edit the script and the shared file", []);
  await edit("run.sh", "one", "two");
  await edit("shared.txt", "one", "two");
  const previous = process.umask(0o022);
  try {
    await checkpoints.rewindFiles(checkpoints.prompts()[0]!);
  } finally {
    process.umask(previous);
  }
  expect([read("run.sh"), read("shared.txt")]).toEqual(["echo one\n", "one\n"]);
  expect(statSync(join(work, "run.sh")).mode & 0o777).toBe(0o755);
  expect(statSync(join(work, "shared.txt")).mode & 0o777).toBe(0o666);
});

test("past the session's bound a prompt's checkpoint is incomplete: that file is named and left as it is", async () => {
  writeFileSync(join(work, "big.txt"), "x".repeat(2000));
  writeFileSync(join(work, "small.txt"), "small");
  const { checkpoints, write } = tools({ maxBytes: 1000 });
  checkpoints.beginPrompt("replace both", []);
  await write("small.txt", "changed");
  await write("big.txt", "changed too");
  const [prompt] = checkpoints.prompts();
  expect(prompt!.incomplete).toEqual([{ path: join(work, "big.txt"), reason: "over the 1000 B of checkpoints a session keeps" }]);
  const report = await checkpoints.rewindFiles(prompt!);
  expect(report.notKept.map((file) => file.path)).toEqual([join(work, "big.txt")]);
  expect([read("small.txt"), read("big.txt")]).toEqual(["small", "changed too"]);
});

test("checkpoints survive a new process: read back from the session's folder, files 0600", async () => {
  writeFileSync(join(work, "a.txt"), "before\n");
  const first = tools();
  first.checkpoints.beginPrompt("change a", [{ role: "user", content: "earlier" }, { role: "assistant", content: [{ type: "text", text: "ok" }] }]);
  await first.edit("a.txt", "before", "after");

  const again = new SessionCheckpoints({ sessionFolder: () => session });
  const [prompt] = again.prompts();
  expect(prompt).toMatchObject({ id: 1, text: "change a", files: [join(work, "a.txt")], at: { message: 2, block: 0 } });
  await again.rewindFiles(prompt!);
  expect(read("a.txt")).toBe("before\n");
  const folder = join(session, "checkpoints");
  for (const file of [join(folder, "journal.jsonl"), ...readdirSync(join(folder, "blobs")).map((name) => join(folder, "blobs", name))]) {
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }
  expect(statSync(folder).mode & 0o777).toBe(0o700);
});

test("a symbolic link planted where a file was is not followed by a rewind", async () => {
  writeFileSync(join(work, "a.txt"), "before\n");
  writeFileSync(join(outside, "secret"), "do not touch\n");
  const { checkpoints, edit } = tools();
  checkpoints.beginPrompt("edit a", []);
  await edit("a.txt", "before", "after");
  unlinkSync(join(work, "a.txt"));
  symlinkSync(join(outside, "secret"), join(work, "a.txt"));
  const report = await checkpoints.rewindFiles(checkpoints.prompts()[0]!);
  expect(report.skipped).toEqual([{ path: join(work, "a.txt"), reason: "it is now a symbolic link; not followed" }]);
  expect(readFileSync(join(outside, "secret"), "utf8")).toBe("do not touch\n");
});

test("a folder replaced by a symbolic link is not followed either", async () => {
  const { checkpoints, write } = tools();
  checkpoints.beginPrompt("create", []);
  await write("dir/new.txt", "new\n");
  rmSync(join(work, "dir"), { recursive: true });
  writeFileSync(join(outside, "new.txt"), "outside\n");
  symlinkSync(outside, join(work, "dir"));
  const report = await checkpoints.rewindFiles(checkpoints.prompts()[0]!);
  expect(report.skipped.map((file) => file.reason)).toEqual(["a folder on its path is now a symbolic link; not followed"]);
  expect(readFileSync(join(outside, "new.txt"), "utf8")).toBe("outside\n");
});

test("a rewound conversation takes its prompt and the later ones out of the list; new prompts count on", async () => {
  const { checkpoints } = tools();
  checkpoints.beginPrompt("one", []);
  checkpoints.beginPrompt("two", []);
  checkpoints.beginPrompt("three", []);
  checkpoints.conversationRewound(checkpoints.prompts()[1]!);
  checkpoints.beginPrompt("four", []);
  expect(checkpoints.prompts().map((prompt) => [prompt.id, prompt.text])).toEqual([[4, "four"], [1, "one"]]);
  expect(new SessionCheckpoints({ sessionFolder: () => session }).prompts().map((prompt) => prompt.id)).toEqual([4, 1]);
});

test("without a saved session nothing is kept, and the tools still write", async () => {
  const checkpoints = new SessionCheckpoints({ sessionFolder: () => undefined });
  checkpoints.beginPrompt("one", []);
  const result = await new WriteFileTool(work, checkpoints).execute({ path: "a.txt", content: "a" });
  expect(result.isError).toBe(false);
  expect(checkpoints.prompts()).toEqual([]);
});

test("prompts that change no file leave no folder; they are written with the first change, and listed after a reload", async () => {
  const { checkpoints, write } = tools();
  checkpoints.beginPrompt("just a question", []);
  checkpoints.beginPrompt("another", []);
  expect(existsSync(session)).toBe(false);
  expect(checkpoints.prompts()).toHaveLength(2);
  checkpoints.beginPrompt("now write", []);
  await write("a.txt", "a");
  expect(new SessionCheckpoints({ sessionFolder: () => session }).prompts().map((prompt) => [prompt.text, prompt.files.length])).toEqual([
    ["now write", 1],
    ["another", 0],
    ["just a question", 0],
  ]);
});

test("a prompt that never ran leaves the list, held or already in the journal, also after a reload; one whose tools changed a file stays", async () => {
  const { checkpoints, write } = tools();
  checkpoints.beginPrompt("blocked before anything was kept", []);
  checkpoints.abandonPrompt();
  expect(checkpoints.prompts()).toEqual([]);
  checkpoints.beginPrompt("wrote, then failed", []);
  await write("a.txt", "a");
  checkpoints.abandonPrompt();
  checkpoints.beginPrompt("failed at once", []);
  checkpoints.abandonPrompt();
  checkpoints.beginPrompt("answered", []);
  const listed = (from: SessionCheckpoints) => from.prompts().map((prompt) => prompt.text);
  expect(listed(checkpoints)).toEqual(["answered", "wrote, then failed"]);
  expect(listed(new SessionCheckpoints({ sessionFolder: () => session }))).toEqual(["answered", "wrote, then failed"]);
});
