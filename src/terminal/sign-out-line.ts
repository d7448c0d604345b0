import type { SignOutResult } from "../mcp/index.ts";
import { issuerText } from "./browser-sign-in.ts";
import { clockTime } from "./clock-time.ts";

/**
 * What `mcp logout` and `/mcp logout` say: `signed out of linear (tokens revoked at https://…)`, or
 * that the tokens were only forgotten here (no revocation offered, or it failed), or that there
 * were none. Where only the refresh token could be revoked (a JWT access token often cannot be),
 * it says what was revoked and when the access token expires on its own. `shown` is the server as
 * the user named it, already fit for the terminal.
 */
export function signOutLine(shown: string, result: SignOutResult): string {
  if (result.forgotten === 0) return `no tokens stored for ${shown}`;
  const issuers = (list: string[]) => list.map(issuerText).join(", ");
  const notes = [
    result.revokedAt.length ? `tokens revoked at ${issuers(result.revokedAt)}` : "",
    result.noRevocationAt.length ? `${issuers(result.noRevocationAt)} offers no revocation; the tokens were forgotten here` : "",
    result.failedAt.length ? `revoking them at ${issuers(result.failedAt)} failed; the tokens were forgotten here` : "",
    ...result.expiringAt.map(({ issuer, refreshRevoked, expiresAt }) => {
      const expires = expiresAt === undefined ? "expires on its own" : `expires at ${clockTime(expiresAt)}`;
      const revoked = refreshRevoked ? `refresh token revoked at ${issuerText(issuer)}; ` : "";
      return `${revoked}the access token could not be revoked ${refreshRevoked ? "there" : `at ${issuerText(issuer)}`} and ${expires}; it was forgotten here`;
    }),
  ].filter(Boolean);
  return `signed out of ${shown} (${notes.join("; ")})`;
}
