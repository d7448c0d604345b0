import type { SignInInteraction } from "../../src/mcp/auth/sign-in.ts";

/**
 * A sign-in interaction whose browser is a fetch: it GETs the authorization URL and follows the
 * redirects as far as the loopback listener (the OAuth fixture approves at once), in this process.
 * `opened` lists every URL it was handed, so a test can count the sign-ins.
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
