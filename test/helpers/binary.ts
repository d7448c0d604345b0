import { join } from "node:path";
import { buildTestBinary } from "../../scripts/test.ts";
import { REPO } from "./paths.ts";

let built: string | undefined;

/**
 * The compiled `cat-code` the process tests spawn. `npm test` (scripts/test.ts) builds it once
 * before the run and names it in CAT_CODE_TEST_BINARY; an ad-hoc `bun test some/file.test.ts`
 * builds it here, once per test process, on first use (a few seconds; safe when two workers build
 * at once). Synchronous, so a spawn site can stay one expression.
 */
export function testBinary(): string {
  const ready = process.env.CAT_CODE_TEST_BINARY;
  if (ready) return ready;
  built ??= buildTestBinary();
  return built;
}

/** The command line of `cat-code`, as process tests spawn it: `[...catCode(), "mcp", "list"]`. */
export function catCode(): string[] {
  return [testBinary()];
}

/** The compiled `cat-code` (see testBinary), for tests that await it in a `beforeAll`. */
export async function compiledBinary(): Promise<string> {
  return testBinary();
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with a generous bound against hangs. */
export async function run(
  argv: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const child = Bun.spawn(argv, {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, CAT_CODE_HOME: "/nonexistent-cat-code-home", ...options.env } as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

/**
 * `cat-code <args>` from source, through the Bun running the tests: for the few smoke tests that
 * pin that a checkout runs as the binary does. Everything else runs the binary (runBinary): 0.2 s
 * faster per start.
 */
export function runSource(args: string[], options?: Parameters<typeof run>[1]): Promise<RunResult> {
  return run([process.execPath, join(REPO, "src", "cli", "main.ts"), ...args], options);
}

/** `cat-code <args>`, the compiled test binary. */
export function runBinary(args: string[], options?: Parameters<typeof run>[1]): Promise<RunResult> {
  return run([...catCode(), ...args], options);
}
