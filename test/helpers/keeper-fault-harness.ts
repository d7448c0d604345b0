import { afterEach, beforeAll } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { KEEPER_PROTOCOL } from "../../src/keeper/keeper-protocol.ts";
import { compiledBinary, runBinary, type RunResult } from "./binary.ts";
import { isAlive, pathsOf, stopKeepersOf } from "./keeper-home.ts";
import { BUN, ECHO_SERVER, REPO, tempDir, uniqueSeconds, writeConfig } from "./paths.ts";
import { killAll, waitForNoProcesses } from "./processes.ts";
import { waitFor } from "./wait-for.ts";

/**
 * What the keeper fault tests share: the compiled binary, a home per test (its keeper stopped after
 * the test, and reported if it would not stop), echo servers told apart by a marker in their argv
 * (killed after the test if any is left), and fake keepers (fixtures/keeper/fake-keeper.ts).
 */
export const FAKE_KEEPER = join(REPO, "fixtures", "keeper", "fake-keeper.ts");

const homes: string[] = [];
const markers: string[] = [];
const fakes: FakeKeeper[] = [];

export function useKeeperFaultHarness(): void {
  beforeAll(() => compiledBinary(), 120_000);
  afterEach(async () => {
    for (const fake of fakes.splice(0)) fake.kill();
    const errors: string[] = [];
    for (const home of homes.splice(0)) {
      await stopKeepersOf(home, () => cat(home, ["mcp", "keeper", "stop"])).catch((error: Error) => errors.push(error.message));
    }
    for (const marker of markers.splice(0)) killAll(await waitForNoProcesses(marker, 0));
    if (errors.length) throw new Error(errors.join("; "));
  });
}

/** A fresh CAT_CODE_HOME whose keeper (if one starts) is stopped after the test. */
export function newHome(): string {
  const home = tempDir("cat-code-keeper-home-");
  homes.push(home);
  return home;
}

/** `cat-code <args>`, the compiled binary, with the keeper allowed (the test preload forbids it). */
export function cat(home: string, args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<RunResult> {
  return runBinary(args, { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined, ...env }, cwd });
}

/** A config with one echo server `echo` whose processes carry a marker of their own; `env` goes into the entry. */
export function echoConfig(entry: Record<string, unknown> = {}): { config: string; marker: string } {
  const marker = uniqueSeconds();
  markers.push(marker);
  return { config: writeConfig({ echo: { command: ECHO_SERVER, args: [marker], ...entry } }), marker };
}

export async function callEcho(home: string, config: string, text = "hi", env: Record<string, string | undefined> = {}, cwd?: string): Promise<RunResult> {
  return cat(home, ["mcp", "call", "echo", "echo", `text=${text}`, "--mcp-config", config], env, cwd);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The live server processes of a marker: the bash server's own subshells (same command line) left out. */
export function serverPids(marker: string): number[] {
  const found = Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  const live = found.filter((pid) => pid !== process.pid && isAlive(pid));
  return live.filter((pid) => !live.includes(parentOf(pid) ?? -1));
}

export interface FakeKeeper {
  pid: number;
  /** Everything it printed: `listening`, `got <line>`, `stopped`. */
  output(): string;
  exited: Promise<number>;
  kill(): void;
}

/**
 * Starts a fake keeper on the home's socket, with a `keeper.json` naming it (mode 0600 in a 0700
 * folder, as a real keeper leaves them), and waits until it listens.
 */
export async function startFakeKeeper(home: string, mode: "--hang" | `--version=${string}`): Promise<FakeKeeper> {
  const paths = pathsOf(home);
  mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
  const child = Bun.spawn([BUN, FAKE_KEEPER, paths.socket, mode], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  let text = "";
  void (async () => {
    for await (const chunk of child.stdout) text += new TextDecoder().decode(chunk);
  })();
  const fake: FakeKeeper = { pid: child.pid, output: () => text, exited: child.exited, kill: () => child.kill("SIGKILL") };
  fakes.push(fake);
  await waitFor(() => text.includes("listening"), () => `the fake keeper to listen (output: ${text})`);
  // A hung keeper claims to be ours (so only its silence can give it away); another version says so.
  const version = mode === "--hang" ? pkg.version : mode.slice("--version=".length);
  const info = { pid: child.pid, version, protocol: KEEPER_PROTOCOL, token: "ab".repeat(32), startedAt: Date.now() };
  writeFileSync(paths.info, JSON.stringify(info), { mode: 0o600 });
  return fake;
}
