import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { runConformance } from "../../scripts/conformance.ts";
import type { ScenarioRun } from "../../scripts/conformance/requirements.ts";
import type { ScenarioOutcome } from "../../scripts/conformance/suite-run.ts";
import { tempDir } from "../helpers/paths.ts";

export const keyOf = (run: { revision: string; scenario: string }) => `${run.revision} ${run.scenario}`;
/** A run as the listing tests name it: `<revision> <scenario>[ (not scored)]`. */
export const labelOf = (run: ScenarioRun) => `${keyOf(run)}${run.scored ? "" : " (not scored)"}`;

/**
 * Runs `runs` through the suite once, before the file's tests, a few at a time (the suite's servers
 * and cat-code are real processes), and adds one test per run, named for it, that expects a pass
 * with no problem. Returns the outcomes by key and the folder they are kept in (removed afterwards).
 */
export function testScenarioRuns(runs: readonly ScenarioRun[], timeoutMs: number): { outcomes: Map<string, ScenarioOutcome>; outDir: string } {
  const outDir = tempDir("cat-code-conformance-test-");
  const outcomes = new Map<string, ScenarioOutcome>();
  const wanted = new Set(runs.map(keyOf));
  beforeAll(async () => {
    const scenarios = [...new Set(runs.map((run) => run.scenario))];
    const revisions = [...new Set(runs.map((run) => run.revision))];
    const { outcomes: list } = await runConformance({ outDir, revisions, scenarios });
    for (const outcome of list) if (wanted.has(keyOf(outcome))) outcomes.set(keyOf(outcome), outcome);
  }, timeoutMs);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  for (const run of runs) {
    const key = keyOf(run);
    test(`${key}: passes`, () => {
      const outcome = outcomes.get(key);
      expect({ key, problems: outcome?.problems }).toEqual({ key, problems: [] });
      expect(outcome?.passed).toBe(true);
    });
  }
  return { outcomes, outDir };
}
