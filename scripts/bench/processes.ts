import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { ROOT } from "./paths.ts";

let built: Promise<string> | undefined;

/** The compiled `cat-code`, built once per bench run as a release is (minified, with bytecode). */
export function benchBinary(): Promise<string> {
  built ??= buildBinary({ outfile: join(ROOT, "dist", "bench", "cat-code") });
  return built;
}

export interface TimedRun {
  ms: number;
  /** The child's own CPU time (user + system, its threads included): less moved by the machine's load than `ms`. */
  cpuMs: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and times it from just before the spawn to the exit. */
export async function timedRun(argv: string[], options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<TimedRun> {
  const started = performance.now();
  const child = Bun.spawn(argv, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? (process.env as Record<string, string>),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const ms = performance.now() - started;
  clearTimeout(timer);
  const usage = child.resourceUsage();
  const cpuMs = usage ? (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1000 : Number.NaN;
  return { ms, cpuMs, exitCode, stdout, stderr };
}

/**
 * An environment where cat-code finds no user config and no secrets, and runs without the connection
 * keeper: the other sections measure what a command costs when it starts its servers itself (the
 * warm-call section deletes CAT_CODE_NO_KEEPER for its warm contenders).
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("ANTHROPIC_")) env[key] = value;
  }
  return { ...env, CAT_CODE_HOME: join(ROOT, "dist", "bench", "home"), CAT_CODE_NO_KEEPER: "1", ...extra };
}
