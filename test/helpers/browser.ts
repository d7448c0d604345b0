import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeBrowserOpener } from "../../scripts/conformance/browser-opener.ts";
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
 * Whether the loopback listener behind `redirectUri` is gone: its port can be listened on again.
 * No request is sent to find out: one to /callback would itself end the sign-in and close it.
 */
export async function listenerClosed(redirectUri: string): Promise<boolean> {
  try {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: Number(new URL(redirectUri).port), fetch: () => new Response("") });
    await probe.stop(true);
    return true;
  } catch {
    return false;
  }
}
