import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unifiedDiff } from "../../../src/agent/tools/unified-diff.ts";
import { tempDir } from "../../helpers/paths.ts";

const names = { oldName: "a.txt", newName: "a.txt" };

/** Applies a diff with patch(1): the one check that the hunks say exactly what changes. */
function patched(oldText: string, diff: string): string {
  const dir = tempDir("cat-code-diff-");
  writeFileSync(join(dir, "a.txt"), oldText);
  writeFileSync(join(dir, "change.diff"), `${diff}\n`);
  const run = Bun.spawnSync(["patch", "-s", "-o", join(dir, "out.txt"), join(dir, "a.txt"), join(dir, "change.diff")]);
  if (run.exitCode !== 0) throw new Error(`patch failed: ${run.stderr.toString()}\n${diff}`);
  return readFileSync(join(dir, "out.txt"), "utf8");
}

describe("unifiedDiff", () => {
  test("writes hunks as diff -u does, with three lines of context", () => {
    // Checked against GNU diff -u: changes 7 lines apart make two hunks, 6 apart would make one.
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"].join("\n") + "\n";
    const after = before.replace("b\n", "B\n").replace("j\n", "");
    expect(unifiedDiff(before, after, names)).toBe(
      ["--- a.txt", "+++ a.txt", "@@ -1,5 +1,5 @@", " a", "-b", "+B", " c", " d", " e", "@@ -7,5 +7,4 @@", " g", " h", " i", "-j", " k"].join("\n"),
    );
    expect(unifiedDiff(before, before.replace("b\n", "B\n").replace("i\n", ""), names).split("\n")[2]).toBe("@@ -1,11 +1,10 @@");
  });

  test("equal texts give no diff; a missing last newline is marked", () => {
    expect(unifiedDiff("same\n", "same\n", names)).toBe("");
    expect(unifiedDiff("x\n", "x", names)).toBe(["--- a.txt", "+++ a.txt", "@@ -1 +1 @@", "-x", "+x", "\\ No newline at end of file"].join("\n"));
  });

  test("patch(1) turns the old text into the new one, for many random edits", () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const text = () => Array.from({ length: random(30) }, () => "abcdef"[random(6)]).join("\n") + (random(2) ? "\n" : "");
    for (let i = 0; i < 40; i++) {
      const [before, after] = [text(), text()];
      if (before === after) continue;
      expect(patched(before, unifiedDiff(before, after, names))).toBe(after);
    }
  });

  test("a small edit in a huge file and two unrelated huge texts both finish at once, and stay correct", () => {
    const big = Array.from({ length: 200_000 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const started = performance.now();
    const edit = unifiedDiff(big, big.replace("line 100000\n", "changed\n"), names);
    expect(edit.split("\n")).toEqual(["--- a.txt", "+++ a.txt", "@@ -99998,7 +99998,7 @@", " line 99997", " line 99998", " line 99999", "-line 100000", "+changed", " line 100001", " line 100002", " line 100003"]);
    // Nothing in common: past the edit limit the middle is shown as removed, then added.
    const other = Array.from({ length: 50_000 }, (_, i) => `other ${i}`).join("\n") + "\n";
    const unrelated = unifiedDiff(big.slice(0, other.length), other, names);
    // Generous: only a quadratic diff (billions of steps) would come near it.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(patched(big.slice(0, other.length), unrelated)).toBe(other);
  });
});
