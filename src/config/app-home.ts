import { dirname, join } from "node:path";

/** `~/.cat-code`, or wherever `CAT_CODE_HOME` points. */
export function catCodeHome(env: Record<string, string | undefined> = process.env): string {
  return env.CAT_CODE_HOME || join(homeDirectory(), ".cat-code");
}

/**
 * The user's home: `$HOME` where os.homedir() would return it anyway (not Windows, HOME not empty), so
 * node:os is loaded only when the account database must be asked: loading it cost every command
 * that reads a config ~0.3 ms (issue 32).
 */
function homeDirectory(): string {
  const home = process.env.HOME;
  if (process.platform !== "win32" && home) return home;
  return (require("node:os") as typeof import("node:os")).homedir();
}

/**
 * Claude Code's user folder (`~/.claude`: its agents, commands): CLAUDE_CONFIG_DIR as Claude Code
 * reads it, else the folder beside the app home, so a test's CAT_CODE_HOME never reaches the real home.
 */
export function claudeHome(env: Record<string, string | undefined> = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(dirname(catCodeHome(env)), ".claude");
}
