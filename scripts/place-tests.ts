#!/usr/bin/env bun
/**
 * `bun scripts/place-tests.ts [--dry-run] [from=to …]`: moves every test file that is not in its
 * tier (scripts/test-tier.ts; `test/cli/x.test.ts` → `test/process/cli/x.test.ts`) with `git mv`,
 * plus any `from=to` moves named (a helper, say), and fixes what pointed at the old paths: relative
 * imports, `join(import.meta.dir, "..", …)`, `new URL("../x", import.meta.url)` and `join(REPO, "test", …)`, in test/, scripts/ and
 * fixtures/, and test paths named in Markdown (run it after a merge: a doc naming a test by its old
 * path is fixed even when the move came from another branch). The structure test names the files
 * this would move.
 */
import { Glob } from "bun";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { placeOf, ROOT, TEST, TIERS } from "./test-tier.ts";

/** Every test file whose path does not say its tier, with where it belongs. */
export function misplacedTests(): Map<string, string> {
  const moves = new Map<string, string>();
  for (const path of new Glob("**/*.test.ts").scanSync(TEST)) {
    const file = join(TEST, path);
    const place = placeOf(file);
    if (place !== file) moves.set(file, place);
  }
  return moves;
}

/** `to` as a path from `fromDir`; "./" first when it is an import specifier. */
function pathFrom(fromDir: string, to: string, relativeSpecifier: boolean): string {
  const path = relative(fromDir, to);
  return relativeSpecifier && !path.startsWith(".") ? `./${path}` : path;
}

/** Rewrites the paths in one file's text: `oldFile` is where it was, `newFile` where it now is. */
function rewrite(text: string, oldFile: string, newFile: string, moved: (path: string) => string): string {
  const oldDir = dirname(oldFile);
  const newDir = dirname(newFile);
  let out = text.replace(/((?:from|import\()\s*)(["'])(\.{1,2}\/[^"']+)\2/g, (whole, lead: string, quote: string, spec: string) => {
    const target = moved(resolve(oldDir, spec));
    const next = pathFrom(newDir, target, true);
    return next === spec ? whole : `${lead}${quote}${next}${quote}`;
  });
  out = out.replace(/new URL\((["'])(\.{1,2}\/[^"']+)\1, import\.meta\.url\)/g, (whole, quote: string, spec: string) => {
    const next = pathFrom(newDir, moved(resolve(oldDir, spec)), true);
    return next === spec ? whole : `new URL(${quote}${next}${quote}, import.meta.url)`;
  });
  // join(import.meta.dir, "..", "x.ts") and join(REPO, "test", "x.ts"): the leading string parts.
  out = out.replace(/join\((import\.meta\.dir|REPO|ROOT), ((?:"[^"$]*"(?:, )?)+)/g, (whole, base: string, args: string) => {
    const parts = [...args.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const relativeToFile = base === "import.meta.dir";
    const was = resolve(relativeToFile ? oldDir : ROOT, ...parts);
    const target = moved(was);
    if (target === was && (!relativeToFile || oldDir === newDir)) return whole;
    const next = relative(relativeToFile ? newDir : ROOT, target);
    if (next === parts.join("/")) return whole;
    const written = parts.length === 1 ? [next] : next.split("/");
    return `join(${base}, ${written.map((p) => `"${p}"`).join(", ")}${args.trimEnd().endsWith(",") ? ", " : ""}`;
  });
  return out;
}

/**
 * A path of a test file named in prose (`test/cli/x.test.ts` in docs/RELIABILITY.md) that no longer
 * exists, as it is now: the same area path under the one tier that holds it.
 */
function placedPath(path: string): string {
  if (existsSync(join(ROOT, path))) return path;
  const rest = relative("test", path);
  const tail = rest.startsWith("reliability/") ? rest.slice("reliability/".length) : rest;
  const found = TIERS.map((tier) => join("test", tier, tail)).filter((candidate) => existsSync(join(ROOT, candidate)));
  return found.length === 1 ? found[0]! : path;
}

/** Fixes the test paths named in prose: Markdown (README, docs/) and comments in test/, scripts/, fixtures/. */
function fixDocs(): void {
  const docs = [
    "README.md",
    ...[...new Glob("**/*.md").scanSync(join(ROOT, "docs"))].map((p) => join("docs", p)),
    ...["test", "scripts", "fixtures"].flatMap((dir) => [...new Glob("**/*.{md,ts}").scanSync(join(ROOT, dir))].map((p) => join(dir, p))),
  ];
  for (const doc of docs) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    const next = text.replace(/\btest\/[\w/.-]+\.ts\b/g, placedPath);
    if (next !== text) writeFileSync(join(ROOT, doc), next);
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const dryRun = args.includes("--dry-run");
  const moves = misplacedTests();
  for (const arg of args.filter((a) => a.includes("="))) {
    const [from, to] = arg.split("=") as [string, string];
    moves.set(resolve(ROOT, from), resolve(ROOT, to));
  }
  for (const [from, to] of moves) console.log(`${relative(ROOT, from)} -> ${relative(ROOT, to)}`);
  if (dryRun) process.exit(0);

  const moved = (path: string) => moves.get(path) ?? path;
  const files = ["test", "scripts", "fixtures"].flatMap((dir) => [...new Glob("**/*.ts").scanSync(join(ROOT, dir))].map((p) => join(ROOT, dir, p)));
  // Read everything first: a file's references are resolved against where it and its targets were.
  const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
  for (const [from, to] of moves) {
    mkdirSync(dirname(to), { recursive: true });
    const result = Bun.spawnSync(["git", "mv", from, to], { cwd: ROOT, stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`git mv ${relative(ROOT, from)} failed: ${result.stderr.toString()}`);
  }
  for (const [file, text] of texts) {
    const next = rewrite(text, file, moved(file), moved);
    if (next !== text) writeFileSync(moved(file), next);
  }
  fixDocs();
}
