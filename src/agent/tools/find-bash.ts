import { existsSync } from "node:fs";
import { win32 } from "node:path";

/** Where the bash tool's shell is, or why there is none. */
export type BashLookup = { ok: true; path: string } | { ok: false; reason: string };

const GIT_BASH_HELP = "install Git for Windows (https://git-scm.com/download/win), or set CAT_CODE_GIT_BASH_PATH to its bash.exe";

/**
 * Finds the shell for the bash tool. POSIX systems have `bash` on PATH. Windows has no bash of its
 * own: the tool needs Git Bash, found from `CAT_CODE_GIT_BASH_PATH`, Git's usual install folders,
 * or the `git.exe` on PATH (`…\Git\cmd\git.exe` -> `…\Git\bin\bash.exe`). A `bash.exe` that is
 * merely on PATH is not taken: `C:\Windows\System32\bash.exe` is WSL's, which runs another system.
 * Platform, environment and file check are arguments, so every branch is tested on any machine.
 */
export function findBash(
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
  exists: (path: string) => boolean = existsSync,
): BashLookup {
  if (platform !== "win32") return { ok: true, path: "bash" };
  // Windows variable names are case-insensitive; a copied environment may not be.
  const get = (name: string) => Object.entries(env).find(([key]) => key.toUpperCase() === name.toUpperCase())?.[1] || undefined;

  const chosen = get("CAT_CODE_GIT_BASH_PATH");
  if (chosen) {
    return exists(chosen) ? { ok: true, path: chosen } : { ok: false, reason: `CAT_CODE_GIT_BASH_PATH names ${chosen}, which does not exist; ${GIT_BASH_HELP}` };
  }
  const installs = ["ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"].map((name) => get(name) && win32.join(get(name) as string, "Git"));
  const local = get("LOCALAPPDATA");
  if (local) installs.push(win32.join(local, "Programs", "Git"));
  for (const dir of (get("PATH") ?? "").split(";")) {
    // Git puts …\Git\cmd on PATH; bash.exe is in …\Git\bin beside it.
    if (dir && exists(win32.join(dir, "git.exe"))) installs.push(win32.dirname(win32.normalize(dir).replace(/\\+$/, "")));
  }
  for (const install of installs) {
    const bash = install && win32.join(install, "bin", "bash.exe");
    if (bash && exists(bash)) return { ok: true, path: bash };
  }
  return { ok: false, reason: `the bash tool needs Git Bash on Windows and found none; ${GIT_BASH_HELP}` };
}
