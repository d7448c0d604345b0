import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { serverEnvironment } from "../system/own-secrets.ts";
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
  const log = openSync(paths.log, "w", 0o600);
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
