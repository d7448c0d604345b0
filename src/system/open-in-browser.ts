import { spawn } from "node:child_process";

/**
 * The program that hands a link to the user's browser, as argv: never a shell, so nothing in the
 * link (`&`, `;`, quotes) is read as a command. Windows' `start` is a cmd builtin and would need
 * one; url.dll's handler opens the link the same way without it.
 */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  return ["xdg-open", url];
}

/**
 * Opens `url` in the browser, detached: the browser outlives us and never holds our terminal.
 * Resolves true once the opener started, false when it could not be (none installed).
 */
export function openInBrowser(url: string): Promise<boolean> {
  const [command, ...args] = browserCommand(url) as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
