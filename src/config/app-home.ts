import { homedir } from "node:os";
import { join } from "node:path";

/** `~/.cat-code`, or wherever `CAT_CODE_HOME` points. */
export function catCodeHome(env: Record<string, string | undefined> = process.env): string {
  return env.CAT_CODE_HOME || join(homedir(), ".cat-code");
}
