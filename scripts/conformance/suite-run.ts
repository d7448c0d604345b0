import { Glob } from "bun";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SUITE_ENTRY, type ScenarioRun } from "./requirements.ts";

const CLIENT = join(import.meta.dir, "..", "conformance-client.ts");
/** checks.json is the suite's own file; one larger than this is not read. */
const MAX_CHECKS_BYTES = 8 << 20;
const MAX_MESSAGE_CHARS = 300;

export interface RunOptions {
  /** Where this run's results go (the suite writes `<scenario>-<time>/checks.json` there). */
  outDir: string;
  /** The suite kills the client after this. */
  clientTimeoutMs: number;
  /** cat-code's per-request timeout inside the client. */
  requestTimeoutMs: number;
  /** Another client than conformance-client.ts (a test of the verdict hands in one that does nothing). */
  clientArgv?: string[];
}

export interface ScenarioOutcome extends ScenarioRun {
  passed: boolean;
  /** Why it failed: each failed or warned check (the suite fails on warnings too), and the client's end. */
  problems: string[];
  resultDir: string;
  seconds: number;
}

interface Check {
  id?: string;
  name?: string;
  status?: string;
  description?: string;
  errorMessage?: string;
  details?: { message?: unknown };
}

/**
 * Runs one scenario at one revision with the suite's `client` command, our client as `--command`.
 * The verdict is the suite's own (its exit code: no FAILURE, no WARNING, no client timeout, and a
 * client exiting 0 unless the scenario allows a client error), and at least one check must have
 * succeeded; the messages come from checks.json.
 */
export async function runScenario(run: ScenarioRun, options: RunOptions): Promise<ScenarioOutcome> {
  const resultDir = join(options.outDir, run.revision, run.scenario.replaceAll("/", "_"));
  mkdirSync(resultDir, { recursive: true });
  // The suite splits --command on spaces and runs it through a shell: a path must be one plain word.
  const client = options.clientArgv ?? [process.execPath, CLIENT, "--request-timeout", String(options.requestTimeoutMs)];
  for (const word of client) {
    if (!/^[\w@%+=:,./-]+$/.test(word)) throw new Error(`cannot hand '${word}' to the suite: its --command is split on spaces (move the checkout to a plain path)`);
  }
  // `exec`: the suite runs the command through `sh -c` and kills that shell on its timeout; without
  // exec (dash forks) the kill would miss the client, which would run on, orphaned, until its own end.
  const command = `exec ${client.join(" ")}`;
  const argv = [process.execPath, SUITE_ENTRY, "client", "--command", command, "--scenario", run.scenario, "--spec-version", run.revision];
  if (run.forced) argv.push("--force");
  argv.push("--timeout", String(options.clientTimeoutMs), "-o", resultDir);
  const started = performance.now();
  const suite = Bun.spawn(argv, { cwd: resultDir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  // Only a hang of the suite itself: it bounds the client on its own.
  const guard = setTimeout(() => suite.kill("SIGKILL"), options.clientTimeoutMs + 30_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(suite.stdout).text(), new Response(suite.stderr).text(), suite.exited]);
  clearTimeout(guard);
  await Bun.write(join(resultDir, "suite-output.txt"), `${stdout}\n--- stderr ---\n${stderr}`);
  const seconds = (performance.now() - started) / 1000;

  const problems = [...clientProblems(stderr)];
  const checks = readChecks(resultDir);
  if (checks === undefined) problems.push(`the suite wrote no checks.json (exit ${exitCode}): see ${join(resultDir, "suite-output.txt")}`);
  for (const check of checks ?? []) {
    if (check.status !== "FAILURE" && check.status !== "WARNING") continue;
    // Some checks say why only in details.message ("Tool was not called by client").
    const why = check.errorMessage ?? (typeof check.details?.message === "string" ? check.details.message : check.description);
    problems.push(`${check.status === "WARNING" ? "warning " : ""}${check.name ?? check.id}: ${oneLine(why ?? "")}`);
  }
  // The suite passes a run whose checks all stayed silent (a client that never sent what the scenario
  // judges, e.g. the handshake): a pass needs at least one check that succeeded.
  const judged = checks?.some((check) => check.status === "SUCCESS") ?? false;
  if (checks !== undefined && !judged) problems.push("no check succeeded: the client never sent what the scenario judges");
  const passed = exitCode === 0 && judged;
  if (!passed && problems.length === 0) problems.push(`the suite exited ${exitCode}: see ${join(resultDir, "suite-output.txt")}`);
  // A check the suite declares but never saw is reported once per declared id: say it once. A pass
  // has none: what remains then is the client's refusal in a scenario that allows a client error
  // (auth/resource-mismatch, auth/iss-*), which is what that scenario wants (its output is kept).
  return { ...run, passed, problems: passed ? [] : [...new Set(problems)], resultDir, seconds };
}

/** What the suite says of the client itself: a timeout, an exit code, and our client's own summary. */
function clientProblems(suiteStderr: string): string[] {
  const problems: string[] = [];
  const timedOut = /Client timed out after (\d+)ms/.exec(suiteStderr);
  if (timedOut) problems.push(`the client was killed after ${timedOut[1]} ms`);
  const exited = /Client exited with code (-?\d+)/.exec(suiteStderr);
  if (exited) problems.push(`the client exited with code ${exited[1]}`);
  // conformance-client.ts ends with one indented line per failed cat-code step.
  const summary = /conformance-client: .*step\(s\) failed:\n((?: {2}.*\n?)+)/.exec(suiteStderr);
  for (const line of summary?.[1]?.split("\n") ?? []) if (line.trim()) problems.push(`step failed: ${oneLine(line)}`);
  return problems;
}

function readChecks(resultDir: string): Check[] | undefined {
  const found = [...new Glob("**/checks.json").scanSync({ cwd: resultDir })];
  if (found.length === 0) return undefined;
  const path = join(resultDir, found[0]!);
  try {
    if (Bun.file(path).size > MAX_CHECKS_BYTES) return undefined;
    const checks = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return Array.isArray(checks) ? (checks as Check[]) : undefined;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS)}…` : line;
}
