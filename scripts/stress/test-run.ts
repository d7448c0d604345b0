import { createWriteStream } from "node:fs";
import { signalGroup } from "../../src/system/process-group.ts";

/** What one run of the test command came to, read from `bun test`'s output. */
export interface RunSummary {
  exitCode: number;
  passed: number;
  failed: number;
  /** `file > describe > test` of every `(fail)` line, plus errors outside any test. */
  failures: string[];
  seconds: number;
}

/**
 * Names the failed tests in `bun test` output: each `(fail)` line under the file header above it,
 * without its duration, and unhandled errors between tests (which fail the run without a `(fail)`).
 */
export function summarize(output: string, exitCode: number, seconds: number): RunSummary {
  let file = "";
  const failures = new Set<string>();
  for (const line of output.split("\n")) {
    // The recap at the end repeats the failures without their files: they are named already.
    if (/^\d+ tests? failed:$/.test(line)) break;
    const header = /^(\S+\.(?:test|spec)\.[cm]?[jt]sx?):$/.exec(line);
    if (header) file = header[1]!;
    const failure = /^\(fail\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line);
    if (failure) failures.add(`${file ? `${file} > ` : ""}${failure[1]}`);
    if (/^# Unhandled error between tests/.test(line)) failures.add(`${file || "a test file"}: unhandled error between tests`);
  }
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, "m").exec(output)?.[1] ?? 0);
  const failed = count("fail");
  if (exitCode !== 0 && failures.size === 0) failures.add(`the test command exited with code ${exitCode} without naming a test`);
  return { exitCode, passed: count("pass"), failed, failures: [...failures], seconds };
}

/** A running test command, in a process group of its own so that everything it started can be ended. */
export interface TestRun {
  done: Promise<RunSummary>;
  /** Ends the whole run (the test runner and every server it started). */
  kill(): void;
}

/** Runs `argv` once, its output (stdout and stderr) written to `logPath`. */
export function startTestRun(argv: string[], logPath: string): TestRun {
  const started = performance.now();
  const child = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
  const log = createWriteStream(logPath);
  // bun test reports on stderr; stdout carries what tests print. Both go to the log, only the
  // report is parsed, so a test's output can never split a report line.
  let report = "";
  const pump = async (stream: ReadableStream<Uint8Array>, keep: boolean) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      log.write(chunk);
      if (keep) report += decoder.decode(chunk, { stream: true });
    }
  };
  const done = Promise.all([child.exited, pump(child.stdout, false), pump(child.stderr, true)]).then(async ([exitCode]) => {
    await new Promise((resolve) => log.end(resolve));
    return summarize(report, exitCode, (performance.now() - started) / 1000);
  });
  return {
    done,
    kill: () => {
      signalGroup(child.pid, "SIGKILL");
    },
  };
}
