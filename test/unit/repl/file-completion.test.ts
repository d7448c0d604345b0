import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileCompletion } from "../../../src/repl/file-completion.ts";
import { tempDir } from "../../helpers/paths.ts";

function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "src", "deep"), { recursive: true });
  writeFileSync(join(dir, "src", "app.ts"), "");
  writeFileSync(join(dir, "src", "app.test.ts"), "");
  writeFileSync(join(dir, "src", "generated.ts"), "");
  writeFileSync(join(dir, "src", ".gitignore"), "generated.ts\n");
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, ".gitignore"), "dist/\n*.log\n");
  writeFileSync(join(dir, "debug.log"), "");
  writeFileSync(join(dir, ".env"), "");
  writeFileSync(join(dir, "with space.txt"), "");
  symlinkSync(join(dir, "src"), join(dir, "source"));
  return dir;
}

test("files and folders relative to the working directory; folders (and links to them) end in /; names with blanks are left out", async () => {
  const complete = fileCompletion({ cwd: project() });
  expect(await complete("look at @")).toEqual([["@source/", "@src/"], "@"]);
  expect(await complete("@src/")).toEqual([["@src/app.test.ts", "@src/app.ts", "@src/deep/"], "@src/"]);
  expect(await complete("@src/app.")).toEqual([["@src/app.test.ts", "@src/app.ts"], "@src/app."]);
});

test("hidden names only when the typed name starts with a dot; what .gitignore files ignore is left out", async () => {
  const complete = fileCompletion({ cwd: project() });
  expect(await complete("@.")).toEqual([["@.env", "@.gitignore"], "@."]);
  expect(await complete("@d")).toEqual([[], "@d"]);
  expect(await complete("@src/g")).toEqual([[], "@src/g"]);
});

test("not an @ word: no answer; an email address is no mention", async () => {
  const complete = fileCompletion({ cwd: project() });
  expect(await complete("plain words")).toBeUndefined();
  expect(await complete("me@ex")).toBeUndefined();
  expect(await complete("@missing/fol")).toEqual([[], "@missing/fol"]);
});
