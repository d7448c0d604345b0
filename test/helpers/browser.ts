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
