#!/usr/bin/env bun
/**
 * `npm test`: builds the test binary once, then runs `bun test` over every tier in parallel workers
 * (one per core), the slowest files first (test/timings.json, refreshed with `--update-timings`).
 * Building first matters: each worker is a process of its own, and without the binary ready every
 * worker that spawns cat-code would build its own copy. The workers learn where it is from
 * CAT_CODE_TEST_BINARY (test/helpers/binary.ts).
 *
 *   bun scripts/test.ts [<bun test arguments, e.g. test/unit or --update-timings>]
 */
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..");
/** Where the tests' compiled cat-code lives (dist/cat-code stays the user's build). */
export const TEST_BINARY = join(ROOT, "dist", "test", "cat-code");
export const TIMINGS = join(ROOT, "test", "timings.json");

/**
 * Builds the test binary (scripts/build.ts, the build users get) and returns its path. NODE_ENV is
 * "test", as it is inside `bun test`: Bun bakes the builder's NODE_ENV into the binary, and the log
 * format follows it ("[warn] …" under test, a boxed " WARN " otherwise), which the tests pin.
 * The build goes to a file of its own, renamed into place: two processes building at once never
 * run a half-written binary. Synchronous, so a test helper can call it from a spawn site.
 */
export function buildTestBinary(): string {
  const own = `${TEST_BINARY}.${process.pid}`;
  mkdirSync(dirname(TEST_BINARY), { recursive: true });
  const env = { ...process.env, NODE_ENV: "test" };
  const result = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "build.ts"), own], { cwd: ROOT, env, stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) {
    rmSync(own, { force: true });
    throw new Error(`building the test binary failed:\n${result.stderr.toString()}`);
  }
  renameSync(own, TEST_BINARY);
  return TEST_BINARY;
}

/** Whether the run reaches past test/unit, whose files start no process and need no binary. */
function needsBinary(args: string[]): boolean {
  const paths = args.filter((arg) => !arg.startsWith("-"));
  return paths.length === 0 || paths.some((path) => !/^(?:\.\/)?test\/unit(?:\/|$)/.test(path));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  let binary = {};
  try {
    if (needsBinary(args)) binary = { CAT_CODE_TEST_BINARY: buildTestBinary() };
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  }
  const child = Bun.spawn([process.execPath, "test", "--timeout", "60000", "--parallel", `--timings=${TIMINGS}`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...binary },
    stdio: ["inherit", "inherit", "inherit"],
  });
  // Ctrl-C reaches the whole foreground group anyway; a plain `kill` of this script ends the run too.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
  process.exit(await child.exited);
}
