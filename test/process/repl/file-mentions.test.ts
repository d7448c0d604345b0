import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachFiles, MAX_FILE_BYTES, MAX_FILES } from "../../../src/repl/file-mentions.ts";
import { tempDir } from "../../helpers/paths.ts";

function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "app.ts"), "export const answer = 42;\n");
  return dir;
}

test("@path attaches the file after the prompt, as the path was typed; punctuation after it is the sentence's", async () => {
  const cwd = project();
  const found = await attachFiles("see @src/app.ts, and @src/app.ts again", { cwd, servers: [] });
  expect(found.blocks).toEqual([
    { type: "text", text: 'The user attached the file src/app.ts with @:\n<file path="src/app.ts">\nexport const answer = 42;\n\n</file>' },
  ]);
  expect(found.notes).toEqual(["attached src/app.ts (26 B)"]);
});

test("a word naming no file, an email address and an @server: resource mention attach nothing", async () => {
  const cwd = project();
  writeFileSync(join(cwd, "everything:demo"), "a file named like a mention");
  const found = await attachFiles("mail me@example.com about @nothing-here and @everything:demo", { cwd, servers: ["everything"] });
  expect(found).toEqual({ blocks: [], notes: [] });
  // Without a server of that name, the same word is a path.
  const asPath = await attachFiles("@everything:demo", { cwd, servers: [] });
  expect(asPath.notes).toEqual(["attached everything:demo (27 B)"]);
});

test("a large file is cut with a note the model sees; a binary file, a folder and a FIFO are refused", async () => {
  const cwd = project();
  writeFileSync(join(cwd, "big.log"), "é".repeat(MAX_FILE_BYTES));
  writeFileSync(join(cwd, "logo.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  await Bun.$`mkfifo ${join(cwd, "pipe")}`;
  const found = await attachFiles("@big.log @logo.png @src @pipe", { cwd, servers: [] });
  expect(found.notes).toEqual([
    "attached big.log (the first 100.0 KB of 200.0 KB)",
    "not attached: logo.png is a binary file",
    "not attached: src is a folder (name the files in it)",
    "not attached: pipe is not a regular file",
  ]);
  const text = (found.blocks[0] as { text: string }).text;
  expect(text).toContain("[cut: the file has 200.0 KB; only the first 100.0 KB are attached]");
  // Cut between whole characters: no replacement character from half of an é.
  expect(text).not.toContain("\uFFFD");
});

test("a symlink to a file is followed; more than MAX_FILES files are refused with a note", async () => {
  const cwd = project();
  symlinkSync(join(cwd, "src", "app.ts"), join(cwd, "link.ts"));
  for (let i = 0; i <= MAX_FILES; i++) writeFileSync(join(cwd, `f${i}.txt`), `${i}`);
  const words = Array.from({ length: MAX_FILES + 1 }, (_, i) => `@f${i}.txt`).join(" ");
  const found = await attachFiles(`@link.ts ${words}`, { cwd, servers: [] });
  expect(found.notes[0]).toBe("attached link.ts (26 B)");
  expect(found.blocks).toHaveLength(MAX_FILES);
  const refused = (name: string) => `not attached: ${name} (a prompt attaches at most ${MAX_FILES} files)`;
  expect(found.notes.slice(-2)).toEqual([refused(`f${MAX_FILES - 1}.txt`), refused(`f${MAX_FILES}.txt`)]);
});
