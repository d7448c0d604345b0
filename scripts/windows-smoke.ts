/**
 * Runs the Windows binary of a release under Wine, on Linux: `--version`, `--help`, and an MCP call
 * over stdio to the chaos fixture compiled for Windows (spawn, pipes, close of the server's tree).
 *
 *   bun scripts/windows-smoke.ts [--release <dir>]     (default dist/release; needs wine and unzip)
 *
 * Wine before 9 has no bcryptprimitives.dll, whose ProcessPrng every Bun executable imports: the
 * binary would not even load. On such a Wine this script builds a stand-in (ProcessPrng over
 * RtlGenRandom) with the MinGW compiler and puts it beside the binary under test, never in a release.
 */
import { $ } from "bun";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { VERSION } from "../src/version.ts";
import { archiveName } from "./release.ts";

const root = join(import.meta.dir, "..");
const MINGW_GCC = "x86_64-w64-mingw32-gcc";
const WINE_DLL_DIRS = ["/usr/lib/wine", "/usr/lib/x86_64-linux-gnu/wine", "/usr/lib64/wine", "/opt/wine-stable/lib64/wine", "/opt/wine-stable/lib/wine"];
const PROCESS_PRNG_SHIM = `#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) { return RtlGenRandom(data, (ULONG)size); }
`;

interface Outcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function smokeTestWindows(releaseDir: string, log: (line: string) => void = console.error): Promise<void> {
  const archive = join(releaseDir, archiveName("windows-x64"));
  if (!existsSync(archive)) throw new Error(`${archive} is missing: run npm run release (--targets windows-x64) first`);
  if (!Bun.which("wine")) throw new Error("wine is not installed: apt-get install wine64 (and gcc-mingw-w64-x86-64 for Wine 8)");

  const dir = await mkdtemp(join(tmpdir(), "cat-code-wine-"));
  try {
    await $`unzip -q ${archive} cat-code.exe -d ${dir}`.quiet();
    await buildFixtureServer(dir);
    if (!wineHasDll("bcryptprimitives.dll")) {
      log("this Wine has no bcryptprimitives.dll: building a stand-in for the test");
      await buildProcessPrngShim(dir);
    }
    const wine = (args: string[]) => runUnderWine(dir, ["cat-code.exe", ...args]);

    const version = await wine(["--version"]);
    expect(version.exitCode === 0 && version.stdout.startsWith(`cat-code ${VERSION}`), "--version prints the version", version);
    const help = await wine(["--help"]);
    expect(help.exitCode === 0 && help.stdout.includes("USAGE"), "--help prints the usage", help);
    const call = await wine(["mcp", "call", "--stdio", "chaos-server.exe", "echo", "text=hi"]);
    expect(call.exitCode === 0 && call.stdout.replace(/\r/g, "") === "hi\n", "mcp call --stdio echoes through a Windows server", call);
    log(`windows-x64: ${version.stdout.trim()}; --help and mcp call --stdio work under Wine`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function expect(ok: boolean, what: string, outcome: Outcome): void {
  if (!ok) throw new Error(`under Wine, ${what} failed (exit ${outcome.exitCode}):\n${outcome.stdout}${outcome.stderr}`);
}

/** The chaos fixture, compiled for Windows by Bun's CLI, as an MCP server that needs nothing else. */
async function buildFixtureServer(dir: string): Promise<void> {
  const outfile = join(dir, "chaos-server.exe");
  await $`${process.execPath} build ${join(root, "fixtures", "chaos-server.ts")} --compile --target=bun-windows-x64 --outfile ${outfile}`.quiet();
}

function wineHasDll(name: string): boolean {
  return WINE_DLL_DIRS.some((dir) => existsSync(join(dir, "x86_64-windows", name)));
}

async function buildProcessPrngShim(dir: string): Promise<void> {
  if (!Bun.which(MINGW_GCC)) throw new Error(`this Wine lacks bcryptprimitives.dll and there is no ${MINGW_GCC} to build a stand-in: apt-get install gcc-mingw-w64-x86-64, or use Wine 9 or later`);
  const source = join(dir, "bcryptprimitives.c");
  await writeFile(source, PROCESS_PRNG_SHIM);
  await $`${MINGW_GCC} -shared -O2 -o ${join(dir, "bcryptprimitives.dll")} ${source} -ladvapi32`.quiet();
}

/** One command under Wine in a prefix of its own, bounded so that a hang fails instead of blocking the release. */
async function runUnderWine(dir: string, argv: string[], timeoutMs = 120_000): Promise<Outcome> {
  const child = Bun.spawn(["wine", ...argv], {
    cwd: dir,
    env: { ...process.env, WINEPREFIX: join(dir, "prefix"), WINEDEBUG: "-all", DISPLAY: "" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({ options: { release: { type: "string" } }, strict: true });
    await smokeTestWindows(resolve(values.release ?? join(root, "dist", "release")));
  } catch (error) {
    console.error(`windows-smoke: ${(error as Error).message}`);
    process.exit(1);
  }
}
