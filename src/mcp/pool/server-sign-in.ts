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

/** Whether the store holds tokens for this entry's exact URL (`--login` signs in first only without). */
export function hasStoredTokens(entry: ServerEntry, auth: AuthContext): boolean {
  return entry.ok && entry.config.type === "http" && auth.store.tokens({ server: entry.name, url: entry.config.url }) !== undefined;
}
