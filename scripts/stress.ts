#!/usr/bin/env bun
/**
 * `bun run test:stress`: runs the README's test command (`npm test`) several times in a row with
 * every core kept busy by a spinning process, to show the suite does not flake on a slow machine.
 * A test that waits for a fixed time, or bounds a duration too tightly, fails here first.
 *
 *   bun run test:stress [--runs N] [--load N] [-- <bun test arguments, e.g. test files>]
 *
 * --runs: how many runs (default 5). --load: how many busy loops (default: one per core).
 * Prints one line per run, the failed tests by name, and `N/N green` at the end; exits 1 when any
 * run failed. Each run's whole output is kept in dist/stress/run-<n>.log. The load ends on every
 * exit path: normally, on an error, on SIGINT/SIGTERM/SIGHUP (which end the running tests too), and
 * (through its stdin) even when this script is killed outright with SIGKILL.
 */
import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { CORES, startCpuLoad } from "./stress/cpu-load.ts";
import { startTestRun, type RunSummary, type TestRun } from "./stress/test-run.ts";

const ROOT = join(import.meta.dir, "..");

function usage(problem: string): never {
  console.error(`error: ${problem}\nusage: bun run test:stress [--runs N] [--load N] [-- <bun test arguments>]`);
  process.exit(2);
}

function parseArgs(argv: string[]): { runs: number; load: number; testArgs: string[] } {
  const dashes = argv.indexOf("--");
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const testArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
  const options = { runs: 5, load: CORES };
  for (let i = 0; i < own.length; i++) {
    const [flag, inline] = own[i]!.split("=", 2) as [string, string | undefined];
    if (flag !== "--runs" && flag !== "--load") usage(`unknown argument '${own[i]}'`);
    const value = inline ?? own[++i];
    const number = Number(value);
    if (!Number.isInteger(number) || number < (flag === "--runs" ? 1 : 0)) usage(`${flag} needs a whole number, got '${value ?? ""}'`);
    options[flag === "--runs" ? "runs" : "load"] = number;
  }
  return { ...options, testArgs };
}

const { runs, load: loadCount, testArgs } = parseArgs(process.argv.slice(2));
const command = ["npm", "test", "--silent", ...(testArgs.length ? ["--", ...testArgs] : [])];
const logDir = join(ROOT, "dist", "stress");
mkdirSync(logDir, { recursive: true });

const load = startCpuLoad(loadCount);
let current: TestRun | undefined;
let stoppedBy: string | undefined;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stoppedBy ??= signal;
    current?.kill();
    void load.stop().then(() => {
      console.error(`stress: stopped by ${signal}; the load and the running tests were ended`);
      process.exit(130);
    });
  });
}

const summaries: RunSummary[] = [];
try {
  console.log(`stress: ${runs} run(s) of \`${command.join(" ")}\` with ${loadCount} busy loop(s) on ${CORES} core(s)`);
  for (let run = 1; run <= runs && !stoppedBy; run++) {
    const logPath = join(logDir, `run-${run}.log`);
    current = startTestRun(command, logPath);
    const summary = await current.done;
    current = undefined;
    if (stoppedBy) break;
    summaries.push(summary);
    const verdict = summary.failures.length === 0 && summary.exitCode === 0 ? "green" : "RED";
    console.log(
      `run ${run}/${runs}: ${verdict}  ${summary.passed} passed, ${summary.failed} failed  ` +
        `${summary.seconds.toFixed(0)} s  (log: ${relative(ROOT, logPath)})`,
    );
    for (const failure of summary.failures) console.log(`  failed: ${failure}`);
  }
} finally {
  await load.stop();
}

const green = summaries.filter((s) => s.exitCode === 0 && s.failures.length === 0).length;
const flaky = new Map<string, number>();
for (const summary of summaries) for (const failure of summary.failures) flaky.set(failure, (flaky.get(failure) ?? 0) + 1);
if (flaky.size > 0) {
  console.log("failed tests (runs that failed them):");
  for (const [failure, count] of [...flaky].sort((a, b) => b[1] - a[1])) console.log(`  ${count}/${runs}  ${failure}`);
}
console.log(`${green}/${runs} green`);
process.exit(green === runs ? 0 : 1);
