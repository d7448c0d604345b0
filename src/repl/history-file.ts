import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { catCodeHome } from "../config/app-home.ts";

const KEPT_LINES = 1000;

/** `~/.cat-code/history` (or under CAT_CODE_HOME): prompts typed at a terminal, oldest first. */
export function historyPath(env: Record<string, string | undefined> = process.env): string {
  return join(catCodeHome(env), "history");
}

/** The last lines of the history file; none when it does not exist or cannot be read. */
export function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split("\n").filter(Boolean).slice(-KEPT_LINES);
  } catch {
    return [];
  }
}

/** Appends one line. History is a convenience: a failure to write it never stops the REPL. */
export function appendHistory(path: string, line: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 });
  } catch {
    // An unwritable home directory is not worth an error line per prompt.
  }
}
