import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "../../helpers/paths.ts";

/**
 * Circles that are known and waiting to be broken, each as its files sorted. Delete a line when its
 * circle is gone; never add one: a new circle is a module that belongs in its own file, or an
 * interface both sides can import from a third.
 */
const KNOWN: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every group of files that reach one another through imports (static, dynamic, type-only alike): Tarjan's strongly connected components. */
function importCircles(): string[] {
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(join(REPO, "src"))) {
    const text = readFileSync(file, "utf8");
    imports.set(file, [...text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map(([, path]) => resolve(dirname(file), path as string)));
  }
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of imports.get(file) ?? []) {
      if (!imports.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) circles.push(group.map((f) => relative(REPO, f)).sort().join(" "));
  };
  for (const file of imports.keys()) if (!order.has(file)) visit(file);
  return circles;
}

test("no module imports itself round a circle (but those known, waiting to be broken)", () => {
  expect(importCircles().filter((circle) => !KNOWN.includes(circle))).toEqual([]);
});
