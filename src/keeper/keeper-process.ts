import { spawn, spawnSync } from "node:child_process";
import { closeSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { serverEnvironment } from "../system/own-secrets.ts";
import { openKeeperLog } from "./keeper-folder.ts";
import type { KeeperPaths } from "./keeper-paths.ts";

/** The keeper's arguments after the program: what `ps` shows, and what tells a keeper from any process. */
const KEEPER_ARGV = ["mcp", "keeper", "run"] as const;

/**
 * Starts `cat-code mcp keeper run` in the background, out of this command's process group (a Ctrl-C
 * to the command does not reach it), stdin closed, stdout closed (a `$(cat-code mcp call …)` must not
 * wait for it), its stderr cut and sent to `keeper.log`, in its own folder (not holding the project
 * folder it was started from: each server's folder comes with the request). It gets the command's
 * environment without cat-code's own and other tools' well-known secrets: each server's environment
 * comes with the request, so the long-lived keeper holds no API key it never uses. The command does
 * not wait for it, nor keep its event loop alive for it.
 */
export function spawnKeeper(paths: KeeperPaths): void {
  const log = openKeeperLog(paths.log);
  try {
    const child = spawn(keeperCommand()[0]!, [...keeperCommand().slice(1), ...KEEPER_ARGV], {
      detached: true,
      cwd: paths.folder,
      stdio: ["ignore", "ignore", log],
      env: serverEnvironment({}, process.env).env,
    });
    child.on("error", () => {}); // A failed start shows as no answer; the command runs cold.
    child.unref();
  } finally {
    closeSync(log);
  }
}

/** The compiled binary is its own program; from source it is Bun running main.ts. */
function keeperCommand(): string[] {
  const main = Bun.main;
  return main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/") ? [process.execPath] : [process.execPath, main];
}

/**
 * Whether `pid` is a cat-code keeper, by its command line (/proc on Linux, `ps` elsewhere): a pid from
 * an old keeper.json may belong to any process by now, and only a keeper may be killed for hanging.
 */
export function isKeeperProcess(pid: number): boolean {
  const argv = commandLine(pid);
  if (!argv) return false;
  const at = argv.findIndex((arg, i) => arg === KEEPER_ARGV[0] && argv[i + 1] === KEEPER_ARGV[1] && argv[i + 2] === KEEPER_ARGV[2]);
  return at > 0 && argv.slice(0, at).some((arg) => /cat-code|main\.ts$/.test(arg));
}

/**
 * Whether `pid` is the keeper of THIS home (`paths`), the only process a command may signal for
 * hanging: a keeper.json in a folder that was once open, or copied, may name another home's live
 * keeper. Proof is the process's own: the absolute CAT_CODE_HOME it was started with, or else its
 * working folder (a keeper works in its run/ folder). Linux reads /proc, elsewhere `lsof`; when
 * neither answers, no.
 */
export function isKeeperOf(pid: number, paths: KeeperPaths): boolean {
  if (!isKeeperProcess(pid)) return false;
  const home = environmentOf(pid)?.CAT_CODE_HOME;
  if (home && isAbsolute(home)) return samePath(home, dirname(paths.folder));
  const cwd = workingFolderOf(pid);
  return cwd !== undefined && samePath(cwd, paths.folder);
}

function environmentOf(pid: number): Record<string, string> | undefined {
  try {
    const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return Object.fromEntries(entries.filter((entry) => entry.includes("=")).map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
  } catch {
    return undefined;
  }
}

function workingFolderOf(pid: number): string | undefined {
  if (process.platform === "linux") {
    try {
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return undefined;
    }
  }
  const lsof = spawnSync("lsof", ["-a", "-p", String(pid), "-d", "cwd", "-Fn"], { encoding: "utf8", timeout: 2000 });
  return lsof.status === 0 ? lsof.stdout.split("\n").find((line) => line.startsWith("n"))?.slice(1) : undefined;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function commandLine(pid: number): string[] | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.split("\0").filter((arg) => arg !== "");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || process.platform === "linux") return undefined;
  }
  const ps = spawnSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8", timeout: 2000 });
  const line = ps.status === 0 ? ps.stdout.trim() : "";
  return line ? line.split(/\s+/) : undefined;
}
