import { expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserCommand, openInBrowser } from "../../../src/system/open-in-browser.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** A browser that writes each argument it gets on a line of `got`, then `done` once it has. */
function recordingBrowser() {
  const dir = tempDir("cat-code-browser-");
  const script = join(dir, "browser.sh");
  const got = join(dir, "got");
  writeFileSync(script, `#!/bin/sh\nfor arg in "$@"; do printf '%s\\n' "$arg" >> '${got}'; done\n: > '${got}.done'\n`);
  chmodSync(script, 0o755);
  return { dir, script, got, done: `${got}.done` };
}

test("$BROWSER is the opener: one program, the link its last argument", () => {
  const url = "https://as.example/authorize?a=1&b=$(touch PWNED)";
  expect(browserCommand(url, "linux", { BROWSER: "/opt/my browser/open" })).toEqual(["/opt/my browser/open", url]);
  expect(browserCommand(url, "darwin", { BROWSER: "w3m" })).toEqual(["w3m", url]);
  // Empty, as some shells leave it: the platform's opener.
  expect(browserCommand(url, "linux", { BROWSER: "" })).toEqual(["xdg-open", url]);
  expect(browserCommand(url, "linux", {})).toEqual(["xdg-open", url]);
});

test("a real $BROWSER script receives the URL as its one argument, its shell characters not run", async () => {
  const browser = recordingBrowser();
  const marker = join(browser.dir, "PWNED");
  const url = `http://127.0.0.1:1/authorize?state=a&b=c;touch ${marker}|x\`touch ${marker}\`$(touch ${marker}) 'q' "dq" *`;
  expect(await openInBrowser(url, { ...process.env, BROWSER: browser.script })).toBe(true);
  await waitFor(() => existsSync(browser.done), "the browser script to run");
  expect(readFileSync(browser.got, "utf8")).toBe(`${url}\n`);
  expect(existsSync(marker)).toBe(false);
  expect(readdirSync(browser.dir).sort()).toEqual(["browser.sh", "got", "got.done"]);
});

test("a $BROWSER that is not a program resolves false instead of throwing", async () => {
  expect(await openInBrowser("https://example.com/", { ...process.env, BROWSER: join(tempDir(), "no-such-browser") })).toBe(false);
});
