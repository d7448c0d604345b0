import type { AuthContext } from "../auth/server-authorizer.ts";
import type { SignInInteraction } from "../auth/sign-in.ts";
import type { ServerEntry } from "../config/server-config.ts";
import { authorizerFor } from "../transport/create-transport.ts";

/**
 * What an explicit sign-in (`mcp login`, `/mcp login`, `--login`) came to. The refusals are the
 * front end's to word: a stdio server has no OAuth, and an entry whose own `Authorization` header
 * authorizes it is never given a token of ours.
 */
export type SignInOutcome =
  | { kind: "signed-in"; issuer: string }
  | { kind: "not-asked" }
  | { kind: "not-http" }
  | { kind: "own-authorization" };

/**
 * Signs in to one server afresh, before any MCP request: the stored tokens are not sent, so the
 * server's first refusal shows what it wants, and the new tokens are stored for the pool's next
 * connection. Throws the AuthError of a sign-in that failed (cancelled, refused, timed out).
 */
export async function signInToServer(entry: ServerEntry, auth: AuthContext, interaction: SignInInteraction): Promise<SignInOutcome> {
  if (!entry.ok || entry.config.type !== "http") return { kind: "not-http" };
  const authorizer = authorizerFor(entry.config, { serverName: entry.name, auth: { ...auth, fresh: true, interaction } });
  if (!authorizer) return { kind: "own-authorization" };
  const issuer = await authorizer.signInFirst();
  return issuer === undefined ? { kind: "not-asked" } : { kind: "signed-in", issuer };
}

/**
 * The issuer the entry's stored tokens come from, else `signedInAt`: a connection right after a
 * sign-in may have signed in again elsewhere (a server that names a new authorization server once
 * it sees the first token, SEP-2352), and the user is told where they are signed in now.
 */
export function currentIssuer(entry: ServerEntry, auth: AuthContext, signedInAt: string): string {
  const tokens = entry.ok && entry.config.type === "http" ? auth.store.tokens({ server: entry.name, url: entry.config.url }) : undefined;
  return tokens?.issuer || signedInAt;
}

/**
 * `auth` with a person at hand for one piece of work only (the reconnect right after `/mcp login`):
 * the connection it opens keeps its authorizer, which reads the interaction at each sign-in, so
 * `end()` takes it back, and a later refusal is NEEDS-AUTH again, never a browser nobody asked for.
 * `end()` also ends a sign-in still waiting for the browser (its request timed out meanwhile): its
 * listener would otherwise hold a port for minutes after the work it was for.
 */
export function lendInteraction(auth: AuthContext, interaction: SignInInteraction): { auth: AuthContext; end(): void } {
  const ended = new AbortController();
  const lent: AuthContext = {
    ...auth,
    interaction: {
      openAuthorizationUrl: (url) => interaction.openAuthorizationUrl(url),
      noRefreshToken: interaction.noRefreshToken && ((expiresAt) => interaction.noRefreshToken!(expiresAt)),
      timeoutMs: interaction.timeoutMs,
      signal: interaction.signal ? AbortSignal.any([interaction.signal, ended.signal]) : ended.signal,
    },
  };
  return {
    auth: lent,
    end: () => {
      lent.interaction = undefined;
      ended.abort();
    },
  };
}

/** Whether the store holds tokens for this entry's exact URL (`--login` signs in first only without). */
export function hasStoredTokens(entry: ServerEntry, auth: AuthContext): boolean {
  return entry.ok && entry.config.type === "http" && auth.store.tokens({ server: entry.name, url: entry.config.url }) !== undefined;
}
