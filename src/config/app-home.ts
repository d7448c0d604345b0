import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** `~/.cat-code`, or wherever `CAT_CODE_HOME` points. */
export function catCodeHome(env: Record<string, string | undefined> = process.env): string {
  return env.CAT_CODE_HOME || join(homedir(), ".cat-code");
}

/**
 * Claude Code's user folder (`~/.claude`: its agents, commands): CLAUDE_CONFIG_DIR as Claude Code
 * reads it, else the folder beside the app home, so a test's CAT_CODE_HOME never reaches the real home.
 */
export function claudeHome(env: Record<string, string | undefined> = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(dirname(catCodeHome(env)), ".claude");
}
