import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeBrowserOpener } from "../../scripts/conformance/browser-opener.ts";
import type { SignInInteraction } from "../../src/mcp/auth/sign-in.ts";
import { tempDir } from "./paths.ts";

let opener: string | undefined;

/**
 * The environment that replaces the user's browser with scripts/conformance/fetch-browser.ts
 * (`$BROWSER`, which cat-code's opener honours): opening the authorization URL then follows its
 * redirects to the loopback listener, keeping cookies and submitting login and consent forms as a
 * person would (oidc-provider's development pages), so a sign-in completes without a person (the
 * conformance client uses the same stand-in). `log`: a file where each request is appended as a
 * JSON line `{method, url, status}`.
 */
export function browserEnv(options: { log?: string } = {}): Record<string, string> {
  opener ??= writeBrowserOpener(tempDir("cat-code-browser-"));
  return { BROWSER: opener, ...(options.log ? { FETCH_BROWSER_LOG: options.log } : {}) };
}

/**
 * A browser that only takes note: opening the authorization URL appends it to a file and goes no
 * further, so that sign-in waits (its listener open, its client registered) until the test calls
 * `follow(url)`, which visits it as browserEnv's stand-in does. Lets a test hold one sign-in open
 * while another runs.
 */
export function heldBrowser(): { env: Record<string, string>; urls(): string[]; follow(url: string): Promise<number> } {
  const dir = tempDir("cat-code-held-browser-");
  const log = join(dir, "urls.txt");
  const script = join(dir, "held-browser");
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  chmodSync(script, 0o755);
  return {
    env: { BROWSER: script },
    urls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
    follow: (url) => Bun.spawn([browserEnv().BROWSER!, url], { stdout: "ignore", stderr: "ignore" }).exited,
  };
}

/**
 * The browser replaced in-process by fetch: GET the URL and follow redirects, as far as the loopback
 * listener (enough for the OAuth fixture, which asks no login form). `opened` lists the URLs.
 */
export function fetchingBrowser(): SignInInteraction & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async openAuthorizationUrl(url) {
      opened.push(url);
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        const response = await fetch(next, { redirect: "manual" });
        await response.arrayBuffer();
        const location = response.headers.get("location");
        if (!location) return;
        next = new URL(location, next);
      }
    },
  };
}
