import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addPermissionRule, removePermissionRule } from "../../../src/settings/settings-writer.ts";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "settings-writer-"));
  file = join(dir, ".cat-code", "settings.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("adding a rule creates the file and its folder", async () => {
  await addPermissionRule(file, "allow", "Bash(npm test:*)");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ permissions: { allow: ["Bash(npm test:*)"] } });
});

test("comments, trailing commas and unknown keys survive an add and a remove; a rule already there writes nothing", async () => {
  await addPermissionRule(file, "deny", "Read(.env)");
  const original = '{\n  // my model\n  "model": "claude-opus-4-1",\n  "futureKey": {"a": 1},\n  "permissions": {"deny": ["Read(.env)"]},\n}\n';
  writeFileSync(file, original);
  await addPermissionRule(file, "deny", "Read(.env)");
  expect(readFileSync(file, "utf8")).toBe(original);
  await addPermissionRule(file, "allow", "Bash(ls:*)");
  let text = readFileSync(file, "utf8");
  expect(text).toContain("// my model");
  expect(text).toContain('"futureKey": {"a": 1}');
  expect(text).toContain('"allow": ["Bash(ls:*)"]');
  expect(await removePermissionRule(file, "allow", "Bash(ls:*)")).toBe(true);
  expect(await removePermissionRule(file, "allow", "Bash(ls:*)")).toBe(false);
  text = readFileSync(file, "utf8");
  expect(text).toContain("// my model");
  expect(text).not.toContain("Bash(ls:*)");
});

test("a corrupt file, or a permissions list that is not a list: an error naming the file, nothing written", async () => {
  await addPermissionRule(file, "allow", "Bash");
  writeFileSync(file, '{"permissions": {"allow": "Bash"}}');
  await expect(addPermissionRule(file, "allow", "Write")).rejects.toThrow(`"permissions.allow" in ${file} is not a list; fix it by hand; nothing was written`);
  writeFileSync(file, '{"permissions": ');
  await expect(addPermissionRule(file, "allow", "Write")).rejects.toThrow(`${file}: not valid JSON`);
  expect(readFileSync(file, "utf8")).toBe('{"permissions": ');
});

test("two processes' worth of adds at once: each rule is kept (the file is locked)", async () => {
  await Promise.all(Array.from({ length: 8 }, (_, i) => addPermissionRule(file, "allow", `Bash(tool${i}:*)`)));
  expect(JSON.parse(readFileSync(file, "utf8")).permissions.allow.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Bash(tool${i}:*)`).sort());
});
