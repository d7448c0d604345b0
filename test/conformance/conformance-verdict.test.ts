/**
 * How `bun run conformance` judges a run, shown with stand-in clients against the suite's real
 * `initialize` scenario: the suite's own verdict is not enough on its own.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatOutcome, runConformance } from "../../scripts/conformance.ts";
import { tempDir } from "../helpers/paths.ts";

const dir = tempDir("cat-code-conformance-verdict-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client that only exits with `code`, sending nothing to the scenario's server. */
function standInClient(name: string, code: number): string[] {
  const path = join(dir, `${name}.ts`);
  writeFileSync(path, `process.exit(${code});\n`);
  return [process.execPath, path];
}

async function runInitializeWith(clientArgv: string[]) {
  const { outcomes } = await runConformance({ revisions: ["2025-11-25"], scenarios: ["initialize"], outDir: join(dir, "out"), clientArgv });
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

test("a client that sends nothing fails, though the suite passes a run whose checks all stayed silent", async () => {
  const outcome = await runInitializeWith(standInClient("silent", 0));
  expect(outcome.passed).toBe(false);
  expect(outcome.problems).toEqual(["no check succeeded: the client never sent what the scenario judges"]);
  expect(formatOutcome(outcome)).toStartWith("FAIL  2025-11-25  initialize");
});

test("a client that exits non-zero fails, and the exit code is named", async () => {
  const outcome = await runInitializeWith(standInClient("broken", 3));
  expect(outcome.passed).toBe(false);
  expect(outcome.problems).toContain("the client exited with code 3");
});
