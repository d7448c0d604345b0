import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { frontMatter, readBoundedText } from "../../../src/system/front-matter-file.ts";
import { tempDir } from "../../helpers/paths.ts";

let folder: string;
beforeEach(() => {
  folder = tempDir("cat-code-front-matter-");
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test("a file is read up to its bound, and says whether it was cut", () => {
  writeFileSync(join(folder, "fits.md"), "12345");
  writeFileSync(join(folder, "over.md"), "123456");
  expect(readBoundedText(join(folder, "fits.md"), 5)).toEqual({ text: "12345", cut: false });
  expect(readBoundedText(join(folder, "over.md"), 5)).toEqual({ text: "12345", cut: true });
});

test("a FIFO or a folder is refused at once, and a missing file is an error, not a throw", () => {
  const fifo = join(folder, "pipe.md");
  Bun.spawnSync(["mkfifo", fifo]);
  mkdirSync(join(folder, "dir.md"));
  expect(readBoundedText(fifo, 100)).toEqual({ error: "not a regular file" });
  expect(readBoundedText(join(folder, "dir.md"), 100)).toEqual({ error: "not a regular file" });
  expect(readBoundedText(join(folder, "none.md"), 100)).toEqual({ error: expect.stringContaining("ENOENT") });
});

test("front matter: values, quotes, lists, lower-case keys; none without the opening ---, or past 50 lines", () => {
  const read = frontMatter("---\nName: x\ndescription: \"quoted: yes\"\nitems:\n  - a\n  - 'b'\n---\n\nbody\n");
  expect(read).toEqual({ fields: new Map([["name", ["x"]], ["description", ["quoted: yes"]], ["items", ["a", "b"]]]), body: "body\n", found: true });
  expect(frontMatter("text\n---\nname: x\n---\n")).toMatchObject({ found: false, body: "text\n---\nname: x\n---\n" });
  expect(frontMatter(`---\n${"k: v\n".repeat(50)}---\nbody`).found).toBe(false);
});

test("front matter: a ` #` comment ends a plain value (the README's agent example has one); a # inside quotes or a word stays", () => {
  const read = frontMatter("---\nmodel: sonnet        # an alias\ncolor: '#fff' # quoted\ntitle: C# tips\ntools:\n  - Read # reads\nnote: # nothing\n---\n");
  expect(read.fields).toEqual(new Map([["model", ["sonnet"]], ["color", ["#fff"]], ["title", ["C# tips"]], ["tools", ["Read"]], ["note", []]]));
});
