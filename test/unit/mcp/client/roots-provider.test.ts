import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { tempDir } from "../../../helpers/paths.ts";

describe("RootsProvider", () => {
  test("the working directory is the first root, as a file:// URL of its real path, named by its folder", () => {
    const cwd = realpathSync(tempDir());
    expect(new RootsProvider(cwd).list()).toEqual([{ uri: `file://${cwd}`, name: cwd.split("/").at(-1) as string }]);
  });

  test("extra folders follow in order; a relative one is taken from the process's working directory", () => {
    const cwd = tempDir();
    const other = tempDir();
    const roots = new RootsProvider(cwd, [other, "."]).list();
    expect(roots.map((root) => fileURLToPath(root.uri))).toEqual([realpathSync(cwd), realpathSync(other), realpathSync(process.cwd())]);
  });

  test("a folder name that needs it is percent-encoded, and decodes back to the path", () => {
    const dir = join(realpathSync(tempDir()), "a b#c%d 你好");
    mkdirSync(dir);
    const [root] = new RootsProvider(dir).list();
    expect(root?.uri).toContain("a%20b%23c%25d%20");
    expect(root?.uri).not.toContain(" ");
    expect(fileURLToPath(root?.uri as string)).toBe(dir);
    expect(root?.name).toBe("a b#c%d 你好");
  });

  test("a symlink is held by its target, so the same folder twice is one root", () => {
    const target = realpathSync(tempDir());
    const link = join(tempDir(), "link");
    symlinkSync(target, link);
    const roots = new RootsProvider(target, [link]);
    expect(roots.list()).toHaveLength(1);
    expect(roots.list()[0]?.uri).toBe(`file://${target}`);
  });

  test("a missing folder or a file is refused with an error naming it", () => {
    const cwd = tempDir();
    const file = join(cwd, "file.txt");
    writeFileSync(file, "x");
    expect(() => new RootsProvider(join(cwd, "missing"))).toThrow(`there is no folder ${join(cwd, "missing")}`);
    expect(() => new RootsProvider(cwd, [file])).toThrow(`${file} is not a folder`);
    expect(() => new RootsProvider(cwd).add(file)).toThrow(`${file} is not a folder`);
  });

  test("add() tells each listener once; an existing root or a refused folder tells no one", () => {
    const roots = new RootsProvider(tempDir());
    let changes = 0;
    const stop = roots.onChange(() => changes++);
    const other = tempDir();
    roots.add(other);
    roots.add(other);
    expect(() => roots.add(join(other, "missing"))).toThrow();
    expect(changes).toBe(1);
    expect(roots.list()).toHaveLength(2);
    stop();
    roots.add(tempDir());
    expect(changes).toBe(1);
  });

  test("list() hands out copies: a caller cannot change the roots", () => {
    const roots = new RootsProvider(tempDir());
    const listed = roots.list();
    (listed[0] as { uri: string }).uri = "file:///etc";
    listed.push({ uri: "file:///", name: "/" });
    expect(roots.list()).toHaveLength(1);
    expect(roots.list()[0]?.uri).not.toBe("file:///etc");
  });
});
