import { join } from "node:path";
import { buildBinary } from "../../scripts/build.ts";
import { REPO } from "./paths.ts";

let built: Promise<string> | undefined;

/** The compiled `cat-code`, built once per test run into dist/test/. */
export function compiledBinary(): Promise<string> {
  built ??= buildBinary({ outfile: join(REPO, "dist", "test", "cat-code") });
  return built;
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

/** `cat-code <args>` from source, through the Bun running the tests. */
export function runSource(args: string[], options?: Parameters<typeof run>[1]): Promise<RunResult> {
  return run([process.execPath, join(REPO, "src", "cli", "main.ts"), ...args], options);
}

export async function runBinary(args: string[], options?: Parameters<typeof run>[1]): Promise<RunResult> {
  return run([await compiledBinary(), ...args], options);
}
