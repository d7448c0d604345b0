import { log } from "../../log.ts";
import { redactUrl } from "../../system/redact-url.ts";
import type { OAuthConfig } from "../config/server-config.ts";
import type { AuthRequestOptions } from "./auth-fetch.ts";
import { discoverAuthorizationServer } from "./authorization-server-metadata.ts";
import type { CredentialsStore, StoredTokens } from "./credentials-store.ts";
import { knownClient } from "./sign-in.ts";
import { revokeToken } from "./token-endpoint.ts";

/** How long a sign-out spends on revocation, all authorization servers together: it is a courtesy. */
export const REVOCATION_BUDGET_MS = 10_000;

export interface SignOutResult {
  /** How many token sets were forgotten here. */
  forgotten: number;
  /** Issuers that took the revocation of every token they had issued. */
  revokedAt: string[];
  /** Issuers that offer no revocation. */
  noRevocationAt: string[];
  /** Issuers where revocation failed (unreachable, refused, too slow, no client known for them). */
  failedAt: string[];
  /**
   * Issuers that revoked every refresh token (or had none to revoke) but not the access token: many
   * servers cannot revoke a JWT access token, which stays valid until it expires (`expiresAt`, epoch
   * ms, the latest of them, when known). Nothing there lasts longer.
   */
  expiringAt: { issuer: string; refreshRevoked: boolean; expiresAt?: number }[];
}

type Revocation = "revoked" | "none" | "failed" | { refreshRevoked: boolean; expiresAt?: number };

/**
 * Signs out of one entry: forgets its tokens first (that alone is the promise: nothing is sent any
 * more), then asks each issuer to revoke them (RFC 7009) where it offers that, refresh token first
 * (revoking it usually ends the access token too). Revocation is best effort and bounded in time.
 * `onlyUrl`: forget only the tokens issued for this URL (ad-hoc servers all share one name, and
 * signing out of one must not sign out of the others).
 */
export async function signOut(
  server: { name: string; url: string; oauth?: OAuthConfig },
  store: CredentialsStore,
  options: { onlyUrl?: boolean; request?: AuthRequestOptions } = {},
): Promise<SignOutResult> {
  // One locked change: a refresh in another process never sees the other urls' tokens gone for a moment.
  const forgotten = await store.forgetTokens(server.name, options.onlyUrl ? server.url : undefined);

  const budget = AbortSignal.timeout(REVOCATION_BUDGET_MS);
  const signal = options.request?.signal ? AbortSignal.any([options.request.signal, budget]) : budget;
  const request = { ...options.request, signal };
  const result: SignOutResult = { forgotten: forgotten.length, revokedAt: [], noRevocationAt: [], failedAt: [], expiringAt: [] };
  const lists = { revoked: result.revokedAt, none: result.noRevocationAt, failed: result.failedAt };
  for (const issuer of new Set(forgotten.map((tokens) => tokens.issuer))) {
    const ofIssuer = forgotten.filter((tokens) => tokens.issuer === issuer);
    const revocation = await revokeAll(server.oauth, store, issuer, ofIssuer, request).catch((error: Error): Revocation => {
      log.debug(`revoking the tokens of '${server.name}' at ${redactUrl(issuer)} failed: ${error.message}`);
      return "failed";
    });
    if (typeof revocation === "string") lists[revocation].push(issuer);
    else result.expiringAt.push({ issuer, ...revocation });
  }
  return result;
}

/**
 * Whether the issuer took every revocation, offers none, or did not take them; or took those of the
 * refresh tokens (if any) and not those of the access tokens, which then simply expire.
 */
async function revokeAll(
  oauth: OAuthConfig | undefined,
  store: CredentialsStore,
  issuer: string,
  tokens: StoredTokens[],
  request: AuthRequestOptions,
): Promise<Revocation> {
  const metadata = await discoverAuthorizationServer(issuer, request);
  if (!metadata.revocationEndpoint) return "none";
  let refreshRevoked = true;
  const unrevoked: StoredTokens[] = [];
  for (const set of tokens) {
    // Each set goes back through the client it was issued to (two sign-ins may have registered two).
    const client = knownClient({ oauth, store }, metadata, set.clientId);
    if (!client) return "failed";
    if (set.refreshToken) refreshRevoked = (await revokeToken({ metadata, client, token: set.refreshToken, hint: "refresh_token" }, request)) && refreshRevoked;
    if (!(await revokeToken({ metadata, client, token: set.accessToken, hint: "access_token" }, request))) unrevoked.push(set);
  }
  if (!refreshRevoked) return "failed";
  if (unrevoked.length === 0) return "revoked";
  const expiries = unrevoked.map((set) => set.expiresAt);
  const known = expiries.every((at) => at !== undefined);
  return { refreshRevoked: tokens.some((set) => set.refreshToken), ...(known ? { expiresAt: Math.max(...(expiries as number[])) } : {}) };
}
