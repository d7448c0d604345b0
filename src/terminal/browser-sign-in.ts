import type { SignInInteraction } from "../mcp/index.ts";
import { openInBrowser } from "../system/open-in-browser.ts";
import { redactUrl } from "../system/redact-url.ts";
import { clockTime } from "./clock-time.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

export interface BrowserSignInOptions {
  /** Named in the line; absent when the interaction serves several servers. */
  serverName?: string;
  /** Where the URL and the notes go (stderr for the CLI, above the prompt in the REPL). */
  print(line: string): void;
  /** False with `--no-browser`: the URL is only printed (a remote shell, another machine's browser). */
  openBrowser: boolean;
  /** Ctrl-C: ends the wait for the browser and closes the listener. */
  signal?: AbortSignal;
  /** The opener; tests and the REPL keep the default, which honours $BROWSER. */
  open?: (url: string) => Promise<boolean>;
}

/**
 * How a person signs in from a terminal: the authorization URL is ALWAYS printed (the browser may
 * open on a screen the user is not looking at, or not at all), then handed to the browser. A browser
 * that cannot be opened is a note: the printed URL still works.
 */
export function browserSignIn(options: BrowserSignInOptions): SignInInteraction {
  const open = options.open ?? openInBrowser;
  return {
    signal: options.signal,
    async openAuthorizationUrl(url: string) {
      // The URL comes from the authorization server's metadata: nothing in it may drive the terminal.
      const to = options.serverName === undefined ? "" : ` to ${sanitizeForTerminal(options.serverName)}`;
      options.print(`Sign in${to} in your browser: ${sanitizeForTerminal(url)}`);
      if (!options.openBrowser) return;
      if (!(await open(url))) options.print("(no browser could be opened: open the link above yourself; waiting for it)");
    },
    noRefreshToken(expiresAt) {
      options.print(noRefreshTokenNote(expiresAt));
    },
  };
}

/** What a person hears once when a sign-in brought no refresh token; the time is local, as on their clock. */
export function noRefreshTokenNote(expiresAt: number | undefined): string {
  const when = expiresAt === undefined ? "" : ` at ${clockTime(expiresAt)}`;
  return `this server gives no refresh token: you will be asked to sign in again when the token expires${when}`;
}

/**
 * An issuer as a person reads it: exactly as the authorization server names itself (the URL parser
 * would add a slash), unless it carries userinfo, a query or a fragment, which are masked.
 */
export function issuerText(issuer: string): string {
  const plain = URL.canParse(issuer) && !/[@?#]/.test(issuer);
  return sanitizeForTerminal(plain ? issuer : redactUrl(issuer));
}
