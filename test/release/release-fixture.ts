import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO = join(import.meta.dir, "..", "..");

const made: string[] = [];

/** A temp dir that {@link removeTempDirs} removes. */
export function tempDir(prefix = "cat-code-release-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** For afterAll: `bun test` fires no process exit event, and each release is about 100 MB. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command with exactly the environment given (nothing inherited but the test preload's
 * CAT_CODE_NO_KEEPER: no keeper outlives the test), bounded against hangs.
 */
export async function runBare(argv: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  const noKeeper: Record<string, string> = process.env.CAT_CODE_NO_KEEPER === undefined ? {} : { CAT_CODE_NO_KEEPER: process.env.CAT_CODE_NO_KEEPER };
  const child = Bun.spawn(argv, { env: { ...noKeeper, ...env }, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

/** A folder of symlinks to just these programs, for a PATH on which nothing else (no node, no bun) exists. */
export function pathWith(programs: string[]): string {
  const dir = join(tempDir("cat-code-path-"), "bin");
  mkdirSync(dir);
  for (const program of programs) {
    const found = Bun.which(program, { PATH: "/usr/bin:/bin:/usr/sbin:/sbin" });
    if (!found) throw new Error(`${program} is not installed`);
    symlinkSync(found, join(dir, program));
  }
  return dir;
}
