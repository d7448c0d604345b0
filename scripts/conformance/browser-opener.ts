import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FETCH_BROWSER = join(import.meta.dir, "fetch-browser.ts");

/**
 * Writes into `dir` an executable that stands in for the user's browser: `$BROWSER` (which
 * cat-code's opener honours) pointed at it makes opening the authorization URL follow its redirects
 * with fetch-browser.ts, so the code reaches cat-code's loopback listener without a person. `$BROWSER`
 * is one program path, so this is a tiny sh script that runs fetch-browser.ts with the Bun running
 * now (no `bun` on PATH needed). Returns its path.
 */
export function writeBrowserOpener(dir: string): string {
  const opener = join(dir, "fetch-browser");
  writeFileSync(opener, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(FETCH_BROWSER)} "$@"\n`);
  chmodSync(opener, 0o755);
  return opener;
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
