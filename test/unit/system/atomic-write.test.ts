import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../../../src/system/atomic-write.ts";
import { tempDir } from "../../helpers/paths.ts";

let folder: string;
beforeEach(() => {
  folder = realpathSync(tempDir("cat-code-atomic-write-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test("the file is replaced whole, text or bytes, and no temporary file is left", () => {
  const path = join(folder, "a.json");
  writeFileSync(path, "old");
  writeAtomically(path, "new text", 0o600);
  expect(readFileSync(path, "utf8")).toBe("new text");
  writeAtomically(path, new Uint8Array([0, 1, 2]), 0o600);
  expect([...readFileSync(path)]).toEqual([0, 1, 2]);
  expect(readdirSync(folder)).toEqual(["a.json"]);
});

test("a link at the path is replaced, never written through", () => {
  const elsewhere = join(folder, "elsewhere");
  writeFileSync(elsewhere, "theirs");
  symlinkSync(elsewhere, join(folder, "link"));
  writeAtomically(join(folder, "link"), "ours", 0o644);
  expect(readFileSync(elsewhere, "utf8")).toBe("theirs");
  expect(readFileSync(join(folder, "link"), "utf8")).toBe("ours");
});

test("a failed write throws the system's error and leaves nothing behind", () => {
  mkdirSync(join(folder, "a-folder"));
  expect(() => writeAtomically(join(folder, "a-folder"), "text", 0o644)).toThrow(expect.objectContaining({ code: expect.any(String) }));
  expect(readdirSync(folder)).toEqual(["a-folder"]);
});

test("the mode is what the umask leaves of it, or exactly it with exactMode", () => {
  const previous = process.umask(0o022);
  try {
    writeAtomically(join(folder, "masked"), "x", 0o666);
    writeAtomically(join(folder, "exact"), "x", 0o666, { exactMode: true });
  } finally {
    process.umask(previous);
  }
  expect(statSync(join(folder, "masked")).mode & 0o7777).toBe(0o644);
  expect(statSync(join(folder, "exact")).mode & 0o7777).toBe(0o666);
});
