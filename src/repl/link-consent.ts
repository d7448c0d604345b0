import type { ElicitResult, UrlElicitationRequest } from "../mcp/index.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { clean, messageLines, noAnswer, type PromptIo } from "./elicitation-io.ts";

/**
 * URL mode: the server wants the user on a page of its own (a payment, a third-party sign-in) that
 * must not pass through us. The spec's rules for the client: show the whole link and its host
 * before asking, never open or fetch it without a yes, warn about links that pretend to be
 * somewhere else. What is opened is the link as shown (its parsed form, punycode and all).
 */
export async function askLinkConsent(request: UrlElicitationRequest, io: PromptIo, openUrl: (url: string) => Promise<boolean>): Promise<ElicitResult> {
  const url = new URL(request.url);
  const server = clean(request.server);
  for (const line of messageLines(`${server} asks you to open a link: `, request.message)) io.print(line);
  // Whole, never cut: the user must see all of where they are sent.
  io.print(`  ${sanitizeForTerminal(url.href)}`);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    io.print(io.style.red(`  cat-code opens only http and https links, not ${clean(url.protocol)} ones: declined.`));
    return { action: "decline" };
  }
  io.print(`  It goes to ${io.style.bold(clean(url.hostname))}${url.protocol === "http:" ? io.style.red(" over plain http (not encrypted)") : ""}.`);
  for (const warning of linkWarnings(url)) io.print(io.style.red(`  ⚠ ${warning}`));
  for (;;) {
    const answer = await io.ask("Open it in your browser? [y]es / [n]o (decline) / Esc (cancel) ");
    if (answer === null) return noAnswer(io);
    switch (answer.trim().toLowerCase()) {
      case "y":
      case "yes":
        // Accept means the user agreed to go there; a missing browser does not take that back,
        // since the link is on the screen to open by hand.
        if (!(await openUrl(url.href))) io.print(io.style.red("  No browser could be started: open the link above yourself."));
        return { action: "accept" };
      case "n":
      case "no":
        return { action: "decline" };
      // Anything else, an empty line included, asks again: a stray Enter should not open a page.
    }
  }
}

/** What makes a link look like it goes somewhere it does not. */
export function linkWarnings(url: URL): string[] {
  const warnings: string[] = [];
  if (url.hostname.split(".").some((label) => label.startsWith("xn--"))) {
    warnings.push("the host name has non-Latin letters (punycode xn--): it may imitate another name");
  }
  if (url.username || url.password) {
    warnings.push(`the part before @ is not the site: the link goes to ${clean(url.hostname)}`);
  }
  return warnings;
}
