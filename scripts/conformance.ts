#!/usr/bin/env bun
/**
 * `bun run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * a devDependency) against cat-code as a client. For each revision (2025-11-25, 2026-07-28) it runs
 * every client scenario of the suite's requirement list, authorization (`auth/*`) included, plus the
 * few not-scored ones cat-code implements (see requirements.ts), a few at a time, each with
 * `scripts/conformance-client.ts` driving cat-code's CLI, and prints one line per scenario and
 * revision: PASS, or FAIL with the failed checks' messages.
 *
 *   bun run conformance [--revision <r>]... [--scenario <name>]... [--jobs N] [--out <dir>]
 *
 * --revision, --scenario: only these (each may repeat, or take a comma list). --jobs: scenarios at
 * once (default 4). --out: where the results go (default: a new temp folder, never the repository);
 * each run keeps the suite's checks.json, the client's stdout/stderr and the suite's own output.
 * Exits 1 when a scenario failed, 2 on a usage error.
 *
 *   bun run conformance --serve
 *
 * runs the suite's SERVER scenarios against `cat-code mcp serve --http --no-namespace` fronting the
 * reference fixture instead (conformance/serve-run.ts): PASS, FAIL or not judged (with why) per
 * scenario and revision; exits 1 when a judged scenario failed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sanitizeForTerminal } from "../src/terminal/terminal-text.ts";
import { clientScenarios, isRevision, REVISIONS, type Revision, type ScenarioRun } from "./conformance/requirements.ts";
import { runScenario, type ScenarioOutcome } from "./conformance/suite-run.ts";

export interface ConformanceOptions {
  revisions?: readonly Revision[];
  scenarios?: readonly string[];
  jobs?: number;
  outDir?: string;
  clientTimeoutMs?: number;
  requestTimeoutMs?: number;
  clientArgv?: string[];
  /** Hears each outcome as it comes (the CLI prints it). */
  onOutcome?: (outcome: ScenarioOutcome) => void;
}

/** Runs the selected scenarios, at most `jobs` at once; the outcomes in the order of the list. */
export async function runConformance(options: ConformanceOptions = {}): Promise<{ outcomes: ScenarioOutcome[]; outDir: string }> {
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), "cat-code-conformance-"));
  const runs = await selectRuns(options.revisions ?? REVISIONS, options.scenarios);
  const outcomes: ScenarioOutcome[] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < runs.length; index = next++) {
      outcomes[index] = await runScenario(runs[index]!, {
        outDir,
        clientTimeoutMs: options.clientTimeoutMs ?? 30_000,
        requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
        clientArgv: options.clientArgv,
      });
      options.onOutcome?.(outcomes[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 4) }, worker));
  return { outcomes, outDir };
}

async function selectRuns(revisions: readonly Revision[], scenarios: readonly string[] | undefined): Promise<ScenarioRun[]> {
  const all = (await Promise.all(revisions.map(clientScenarios))).flat();
  if (!scenarios) return all;
  const unknown = scenarios.filter((name) => !all.some((run) => run.scenario === name));
  if (unknown.length > 0) {
    const known = [...new Set(all.map((run) => run.scenario))].join(", ");
    throw new UsageError(`no client scenario ${unknown.map((n) => `'${n}'`).join(", ")} in the selected revisions (known: ${known})`);
  }
  return all.filter((run) => scenarios.includes(run.scenario));
}

class UsageError extends Error {}

/** One line per outcome, the problems indented below a failure. Text from the suite is sanitized. */
export function formatOutcome(outcome: ScenarioOutcome): string {
  const label = `${outcome.passed ? "PASS" : "FAIL"}  ${outcome.revision}  ${outcome.scenario}${outcome.scored ? "" : " (not scored)"}`;
  const head = `${label}  ${outcome.seconds.toFixed(1)} s`;
  if (outcome.passed) return head;
  return [head, ...outcome.problems.map((problem) => `      ${sanitizeForTerminal(problem)}`)].join("\n");
}

const FLAGS = new Set(["--revision", "--scenario", "--jobs", "--out"]);

function parseArgs(argv: string[]): ConformanceOptions {
  const options: { revisions?: Revision[]; scenarios?: string[]; jobs?: number; outDir?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    if (!FLAGS.has(flag)) throw new UsageError(`unknown argument '${argv[i]}'`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    const list = value.split(",").filter(Boolean);
    if (flag === "--revision") {
      const bad = list.find((r) => !isRevision(r));
      if (bad !== undefined) throw new UsageError(`unknown revision '${bad}' (known: ${REVISIONS.join(", ")})`);
      options.revisions = [...(options.revisions ?? []), ...(list as Revision[])];
    } else if (flag === "--scenario") options.scenarios = [...(options.scenarios ?? []), ...list];
    else if (flag === "--jobs") {
      options.jobs = Number(value);
      if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new UsageError(`--jobs needs a whole number of at least 1, got '${value}'`);
    } else options.outDir = resolve(value);
  }
  return options;
}

if (import.meta.main && process.argv.includes("--serve")) {
  // The server side: the suite's server scenarios against `cat-code mcp serve --http` (serve-run.ts).
  const { runServeConformance } = await import("./conformance/serve-run.ts");
  const { lines, outDir } = await runServeConformance();
  for (const revision of REVISIONS) {
    const ofRevision = lines.filter((line) => line.revision === revision);
    const judged = ofRevision.filter((line) => !line.notJudged);
    const passed = judged.filter((line) => line.problems.length === 0).length;
    console.log(`${revision}: ${passed}/${judged.length} judged scenarios passed (${ofRevision.length - judged.length} not judged, ${ofRevision.filter((line) => line.failed === 0).length}/${ofRevision.length} with no failed check)`);
  }
  console.log(`results in ${outDir}`);
  process.exit(lines.some((line) => !line.notJudged && line.problems.length > 0) ? 1 : 0);
} else if (import.meta.main) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const { outcomes, outDir } = await runConformance({ ...options, onOutcome: (outcome) => console.log(formatOutcome(outcome)) });
    const failed = outcomes.filter((outcome) => !outcome.passed).length;
    console.log(`\n${outcomes.length - failed}/${outcomes.length} passed; results in ${outDir}`);
    process.exit(failed > 0 ? 1 : 0);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      console.error(`conformance: ${(error as Error).message}`);
      process.exit(1);
    }
    console.error(`conformance: ${error.message}\nusage: bun run conformance [--revision <r>]... [--scenario <name>]... [--jobs N] [--out <dir>]`);
    process.exit(2);
  }
}
