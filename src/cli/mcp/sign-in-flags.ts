import { type AuthContext, AuthError, hasStoredTokens, type SignInInteraction, type SignInOutcome, signInToServer } from "../../mcp/index.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { browserSignIn } from "../../terminal/browser-sign-in.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { onShutdown } from "../../terminal/shutdown.ts";

export { browserArg, signInArgs } from "./sign-in-args.ts";

/**
 * A sign-in at the terminal: the URL on stderr, the browser opened unless `--no-browser`. Ctrl-C (and
 * every other ending signal) aborts the wait, which closes the loopback listener before the process
 * exits 130 (see shutdown.ts); `settled` is what that cleanup waits for.
 */
export function terminalSignIn(serverName: string | undefined, openBrowser: boolean): { interaction: SignInInteraction; settled(work: Promise<unknown>): void } {
  const cancel = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  onShutdown(async () => {
    cancel.abort();
    await running.catch(() => {});
  });
  return {
    interaction: browserSignIn({ serverName, print: (line) => console.error(line), openBrowser, signal: cancel.signal }),
    settled: (work) => {
      running = work;
    },
  };
}

/** Signs in to one entry at the terminal; an AuthError becomes exit 3 with its (sanitized at print) message. */
export async function signInAtTerminal(entry: ServerEntry, auth: AuthContext, openBrowser: boolean): Promise<SignInOutcome> {
  const { interaction, settled } = terminalSignIn(entry.name, openBrowser);
  const work = signInToServer(entry, auth, interaction);
  settled(work);
  try {
    return await work;
  } catch (error) {
    if (error instanceof AuthError) throw CliError.unavailable(`signing in to '${entry.name}' failed: ${error.message}`);
    throw error;
  }
}

/**
 * `--login`: every HTTP entry without stored tokens signs in before the pool connects (no request
 * timeout runs while the person is in the browser); then the pool's context carries an interaction,
 * so a refresh that fails or a step-up signs in inside the call too.
 */
export async function loginFirst(entries: ServerEntry[], auth: AuthContext, openBrowser: boolean): Promise<AuthContext> {
  for (const entry of entries) {
    if (!entry.ok || entry.config.type !== "http" || entry.config.disabled || entry.trust || hasStoredTokens(entry, auth)) continue;
    await signInAtTerminal(entry, auth, openBrowser);
  }
  const names = entries.map((entry) => entry.name);
  return { ...auth, interaction: terminalSignIn(names.length === 1 ? names[0] : undefined, openBrowser).interaction };
}
