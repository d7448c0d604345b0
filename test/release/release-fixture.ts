import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { release, type Release } from "../../scripts/release.ts";

export const REPO = join(import.meta.dir, "..", "..");

const made: string[] = [];
process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp dir removed when the test run ends. */
export function tempDir(prefix = "cat-code-release-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

let built: Promise<Release> | undefined;

/** The linux-x64 release, built once per test run into a temp dir: the slow part, shared by the files here. */
export function linuxRelease(): Promise<Release> {
  built ??= release({ targets: ["linux-x64"], outDir: join(tempDir(), "release"), log: () => {} });
  return built;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with exactly the environment given (nothing inherited), bounded against hangs. */
export async function runBare(argv: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  const child = Bun.spawn(argv, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
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
