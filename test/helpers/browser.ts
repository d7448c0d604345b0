import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./paths.ts";

const FETCH_BROWSER = join(import.meta.dir, "fetch-browser.ts");
let opener: string | undefined;

/**
 * The environment that replaces the user's browser with fetch-browser.ts (`$BROWSER`, which
 * cat-code's opener honours): opening the authorization URL then follows its redirects to the
 * loopback listener, so a sign-in completes without a person. `BROWSER` is one program path, so it
 * is a tiny sh script that runs fetch-browser.ts with the Bun running the tests (no `bun` on PATH
 * needed). `log`: a file where each URL visited is appended as a JSON line.
 */
export function browserEnv(options: { log?: string } = {}): Record<string, string> {
  if (opener === undefined) {
    opener = join(tempDir("cat-code-browser-"), "fetch-browser");
    writeFileSync(opener, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(FETCH_BROWSER)} "$@"\n`);
    chmodSync(opener, 0o755);
  }
  return { BROWSER: opener, ...(options.log ? { FETCH_BROWSER_LOG: options.log } : {}) };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
