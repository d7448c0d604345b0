/**
 * The official MCP conformance suite against cat-code as a client (`bun run conformance`), inside the
 * test run: one test per scenario and revision, so a failure names it. The suite's servers are real
 * (127.0.0.1, ports from the OS), and so is the client: cat-code's CLI in its own processes.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { clientScenarios, REVISIONS } from "../../scripts/conformance/requirements.ts";
import { REPO } from "../helpers/paths.ts";
import { keyOf, labelOf, testScenarioRuns } from "./scenario-runs.ts";

/** Authorization has its own file (conformance-auth.test.ts). */
const RUNS = (await Promise.all(REVISIONS.map(clientScenarios))).flat().filter((run) => !run.scenario.startsWith("auth/"));

test("the runs are every client scenario of both requirement lists that is not about authorization", () => {
  expect(RUNS.map(labelOf)).toEqual([
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

const { outcomes, outDir } = testScenarioRuns(RUNS, 180_000);

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
