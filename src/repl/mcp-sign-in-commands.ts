import { AuthError, currentIssuer, type ServerPool, signInCancelled, signInToServer, signOut } from "../mcp/index.ts";
import { type ServerEntry, setsOwnAuthorization } from "../mcp/config/server-config.ts";
import { browserSignIn, issuerText } from "../terminal/browser-sign-in.ts";
import { signOutLine } from "../terminal/sign-out-line.ts";
import { nearestNames } from "../terminal/suggest.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";

export interface SignInCommandContext {
  pool: ServerPool;
  print(text: string): void;
  /** Runs work the user may give up: Ctrl-C or Esc aborts its signal and the prompt comes back. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The opener (tests keep the default, which honours $BROWSER). */
  open?: (url: string) => Promise<boolean>;
}

/**
 * `/mcp login <name>`: signs in without leaving the session (the URL printed, the browser opened),
 * then connects the server anew so its tools join the registry. That connect may sign in too, the
 * same way: a server that names a new authorization server once it sees the new token (SEP-2352)
 * gets a registration and a sign-in there within this one login. Ctrl-C cancels either. Every
 * outcome is one line.
 */
export async function replLogin(name: string, context: SignInCommandContext): Promise<void> {
  const entry = oauthEntry(name, context);
  const auth = context.pool.authContext;
  if (!entry || !auth) return;
  const shown = sanitizeForTerminal(name);
  try {
    const { outcome, status } = await context.cancellable(async (signal) => {
      const interaction = browserSignIn({ serverName: name, print: context.print, openBrowser: true, signal, open: context.open });
      const outcome = await signInToServer(entry, auth, interaction);
      if (outcome.kind !== "signed-in") return { outcome };
      const status = await context.pool.reconnect(name, { signal, interaction });
      // Called off in the connect (a sign-in at a new authorization server, or a slow server): said as at the first sign-in.
      if (signal.aborted && status?.state !== "connected") throw signInCancelled();
      return { outcome, status };
    });
    if (outcome.kind === "not-asked") {
      context.print(`'${shown}' does not ask for a sign-in`);
      return;
    }
    if (outcome.kind !== "signed-in") return;
    const issuer = issuerText(currentIssuer(entry, auth, outcome.issuer));
    if (status?.state === "connected") context.print(`signed in to ${shown} (${issuer}), ${status.tools.length} tool(s)`);
    else context.print(`signed in to ${shown} (${issuer}), but connecting failed: ${sanitizeForTerminal(firstLine(status && "reason" in status ? status.reason : "not connected"))}`);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    context.print(`signing in to '${shown}' failed: ${sanitizeForTerminal(firstLine(error.message))}`);
  }
}

/** `/mcp logout <name>`: forgets the tokens (revoking them where offered); the server is NEEDS-AUTH at once. */
export async function replLogout(name: string, context: SignInCommandContext): Promise<void> {
  const entry = oauthEntry(name, context);
  const auth = context.pool.authContext;
  if (!entry?.ok || entry.config.type !== "http" || !auth) return;
  const shown = sanitizeForTerminal(name);
  const result = await signOut({ name, url: entry.config.url, oauth: entry.config.oauth }, auth.store);
  context.print(signOutLine(shown, result));
  // The live connection still holds the token it was given: connect anew, so the server is NEEDS-AUTH now and its tools leave.
  if (result.forgotten > 0) await context.pool.reconnect(name);
}

/** The HTTP entry OAuth applies to, or undefined after a line saying why not. */
function oauthEntry(name: string, context: SignInCommandContext): ServerEntry | undefined {
  const shown = sanitizeForTerminal(name);
  if (!name) {
    context.print("Usage: /mcp login <server> or /mcp logout <server>");
    return undefined;
  }
  const entry = context.pool.entry(name);
  const names = context.pool.status().map((status) => status.name);
  if (!entry) {
    const near = nearestNames(name, names);
    context.print(`No MCP server '${shown}'.${near.length ? ` Did you mean ${sanitizeForTerminal(near[0]!)}?` : ""} /mcp lists them.`);
    return undefined;
  }
  if (!entry.ok || entry.config.disabled || entry.trust) {
    context.print(`'${shown}' is not in use (see /mcp)`);
    return undefined;
  }
  if (entry.config.type !== "http") {
    context.print(`'${shown}' is a stdio server: OAuth sign-in is for HTTP servers`);
    return undefined;
  }
  if (setsOwnAuthorization(entry.config)) {
    context.print(`'${shown}' sets its own Authorization header in ${sanitizeForTerminal(entry.source)}: remove it to sign in with OAuth`);
    return undefined;
  }
  if (!context.pool.authContext) {
    context.print("OAuth sign-in is not available here");
    return undefined;
  }
  return entry;
}
