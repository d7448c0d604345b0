import { spawn } from "node:child_process";

/**
 * The program that hands a link to the user's browser, as argv: never a shell, so nothing in the
 * link (`&`, `;`, quotes) is read as a command. `$BROWSER`, when set, is that program (the
 * convention of xdg-open, git and Python's webbrowser): one program path, the link its last
 * argument; it lets a headless machine, a remote shell or a test choose what opens the link.
 * Otherwise the platform's opener. Windows' `start` is a cmd builtin and would need a shell;
 * url.dll's handler opens the link the same way without it.
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): string[] {
  const chosen = env.BROWSER?.trim();
  if (chosen) return [chosen, url];
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  return ["xdg-open", url];
}

/**
 * Opens `url` in the browser, detached: the browser outlives us and never holds our terminal.
 * Resolves true once the opener started, false when it could not be (none installed, or a
 * `$BROWSER` that is not a program).
 */
export function openInBrowser(url: string, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  const [command, ...args] = browserCommand(url, process.platform, env) as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: "ignore", env: env as NodeJS.ProcessEnv });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
