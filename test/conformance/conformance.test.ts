/**
 * The official MCP conformance suite against cat-code as a client (`bun run conformance`), inside the
 * test run: one test per scenario and revision, so a failure names it. The suite's servers are real
 * (127.0.0.1, ports from the OS), and so is the client: cat-code's CLI in its own processes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformance } from "../../scripts/conformance.ts";
import { clientScenarios, REVISIONS } from "../../scripts/conformance/requirements.ts";
import type { ScenarioOutcome } from "../../scripts/conformance/suite-run.ts";
import { REPO } from "../helpers/paths.ts";

const RUNS = (await Promise.all(REVISIONS.map(clientScenarios))).flat();
const keyOf = (run: { revision: string; scenario: string }) => `${run.revision} ${run.scenario}`;

const outDir = mkdtempSync(join(tmpdir(), "cat-code-conformance-test-"));
const outcomes = new Map<string, ScenarioOutcome>();

beforeAll(async () => {
  const { outcomes: list } = await runConformance({ outDir });
  for (const outcome of list) outcomes.set(keyOf(outcome), outcome);
}, 180_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test("the runs are every client scenario of both requirement lists that is not about authorization", () => {
  expect(RUNS.map((run) => `${keyOf(run)}${run.scored ? "" : " (not scored)"}`)).toEqual([
    "2025-11-25 initialize",
    "2025-11-25 tools_call",
    "2025-11-25 elicitation-sep1034-client-defaults",
    "2025-11-25 sse-retry",
    "2025-11-25 json-schema-2020-12-preservation (not scored)",
    "2026-07-28 tools_call",
    "2026-07-28 request-metadata",
    "2026-07-28 sep-2322-client-request-state",
    "2026-07-28 http-standard-headers",
    "2026-07-28 http-custom-headers",
    "2026-07-28 http-invalid-tool-headers",
    "2026-07-28 json-schema-ref-no-deref",
    "2026-07-28 json-schema-2020-12-preservation (not scored)",
  ]);
});

for (const run of RUNS) {
  const key = keyOf(run);
  test(`${key}: passes`, () => {
    const outcome = outcomes.get(key);
    expect({ key, problems: outcome?.problems }).toEqual({ key, problems: [] });
    expect(outcome?.passed).toBe(true);
  });
}

test("each run keeps the suite's checks.json and the client's output, outside the repository", async () => {
  for (const outcome of outcomes.values()) {
    expect(outcome.resultDir.startsWith(outDir)).toBe(true);
    expect(outcome.resultDir.startsWith(REPO)).toBe(false);
    const files = [...new Bun.Glob("**/{checks.json,stderr.txt,stdout.txt}").scanSync({ cwd: outcome.resultDir })].map((f) => f.split("/").pop());
    expect({ scenario: keyOf(outcome), files: [...new Set(files)].sort() }).toEqual({ scenario: keyOf(outcome), files: ["checks.json", "stderr.txt", "stdout.txt"] });
  }
});

test("bad arguments to `bun run conformance` get a one-line reason and exit 2", async () => {
  for (const [args, reason] of [
    [["--revision", "2024-01-01"], "unknown revision '2024-01-01' (known: 2025-11-25, 2026-07-28)"],
    [["--scenario", "no-such-scenario"], "no client scenario 'no-such-scenario' in the selected revisions"],
    [["--jobs", "0"], "--jobs needs a whole number of at least 1, got '0'"],
    [["--frobnicate"], "unknown argument '--frobnicate'"],
  ] as const) {
    const child = Bun.spawn([process.execPath, join(REPO, "scripts", "conformance.ts"), ...args], { stdout: "pipe", stderr: "pipe" });
    const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect({ args, exitCode, firstLine: stderr.split("\n")[0] }).toMatchObject({ args, exitCode: 2 });
    expect(stderr.split("\n")[0]).toStartWith(`conformance: ${reason}`);
  }
});
