import { CredentialsStore } from "../../mcp/auth/credentials-store.ts";
import { MASK, visible } from "../../mcp/config/launch-summary.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";

/** A value that names a variable and holds nothing itself: shown as written. A `:-default` may be the secret. */
const VARIABLE_ONLY = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * An entry's `oauth` block as `mcp get` shows it, whatever the entry's scope: `clientSecret` as
 * `***` unless written as a bare `${VAR}`, `clientMetadataUrl` through redactUrl unless it holds a
 * `${VAR}`, the rest (client id, scopes, port, grant) as written. Undefined when there is none.
 */
export function maskedOAuth(oauth: unknown): unknown {
  if (oauth === undefined) return undefined;
  // Not an object (the entry is invalid): it may still be the secret, misplaced.
  if (!isPlainObject(oauth)) return MASK;
  const masked: Record<string, unknown> = { ...oauth };
  if (masked.clientSecret !== undefined) {
    masked.clientSecret = typeof masked.clientSecret === "string" && VARIABLE_ONLY.test(masked.clientSecret) ? masked.clientSecret : MASK;
  }
  if (typeof masked.clientMetadataUrl === "string" && !masked.clientMetadataUrl.includes("${")) {
    masked.clientMetadataUrl = redactUrl(masked.clientMetadataUrl);
  }
  return masked;
}

/** `mcp get`'s rows for the oauth block (`oauth:` then one row a field), not yet sanitized. */
export function oauthRows(entry: ServerEntry): [string, string][] {
  const raw = isPlainObject(entry.raw) ? entry.raw : {};
  const masked = maskedOAuth(raw.oauth);
  if (masked === undefined) return [];
  if (!isPlainObject(masked)) return [["oauth:", MASK]];
  return Object.entries(masked).map(([field, value], i): [string, string] => [
    i === 0 ? "oauth:" : "",
    `${visible(field)}: ${visible(Array.isArray(value) && value.every((item) => typeof item === "string") ? value.join(" ") : typeof value === "string" ? value : (JSON.stringify(value) ?? ""))}`,
  ]);
}

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
    if (tokens.expiresAt !== undefined) parts.push(`${tokens.expiresAt <= Date.now() ? "expired" : "expires"} ${new Date(tokens.expiresAt).toISOString()}`);
    if (tokens.refreshToken !== undefined) parts.push("refreshable");
    return { signedIn: true, row: ["tokens:", `stored (${visible(parts.join(", "))})`] };
  }
  if (store.hasTokens(entry.name)) {
    return { signedIn: false, row: ["tokens:", `none for this url (those of an earlier url stay until: cat-code mcp logout ${entry.name})`] };
  }
  return { signedIn: false, row: ["tokens:", "none"] };
}
