import { CredentialsStore } from "../../mcp/index.ts";
import { visible } from "../../mcp/config/launch-summary.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { clockTime } from "../../terminal/clock-time.ts";

/**
 * Whether the store holds tokens for the entry's name and its current url: the only tokens the
 * entry's server would be sent. Tokens are never shown, only that they exist and what they are for.
 */
export function signInState(entry: ServerEntry, store = new CredentialsStore()): { signedIn: boolean; row?: [string, string] } {
  if (!entry.ok || entry.config.type !== "http") return { signedIn: false };
  const tokens = store.tokens({ server: entry.name, url: entry.config.url });
  if (tokens) {
    const parts = [`issuer ${redactUrl(tokens.issuer)}`];
    if (tokens.scopes?.length) parts.push(`scopes ${tokens.scopes.join(" ")}`);
    // On the user's own clock, as every other message that says when a token expires.
    if (tokens.expiresAt !== undefined) parts.push(`${tokens.expiresAt <= Date.now() ? "expired" : "expires"} ${clockTime(tokens.expiresAt)}`);
    if (tokens.refreshToken !== undefined) parts.push("refreshable");
    return { signedIn: true, row: ["tokens:", `stored (${visible(parts.join(", "))})`] };
  }
  if (store.hasTokens(entry.name)) {
    return { signedIn: false, row: ["tokens:", `none for this url (those of an earlier url stay until: cat-code mcp logout ${entry.name})`] };
  }
  return { signedIn: false, row: ["tokens:", "none"] };
}
