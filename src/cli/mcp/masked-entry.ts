import { MASK, maskedOAuth } from "../../mcp/config/launch-summary.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { redactUrl } from "../../system/redact-url.ts";

/**
 * `mcp get --json`'s entry: a project entry as written (its values decide what runs, and are not
 * the user's secrets); the user's own with every env and header value replaced by `***`, where
 * tokens live, and a URL without `${VAR}` through redactUrl. Keys stay, so the user still sees
 * which variables and headers are set. The same rule as launchSummary's: the user's `oauth` block
 * has its secret masked (maskedOAuth), a project's is shown as written.
 */
export function maskedEntry(entry: ServerEntry): unknown {
  const raw = entry.raw;
  if (!isPlainObject(raw)) return raw;
  // A project's entry is shown whole, its oauth block too: what it sends is what is approved.
  if (entry.scope === "project") return raw;
  const withOAuth = raw.oauth === undefined ? raw : { ...raw, oauth: maskedOAuth(raw.oauth) };
  const masked: Record<string, unknown> = { ...withOAuth };
  for (const field of ["env", "headers"]) {
    const value = masked[field];
    if (value === undefined) continue;
    masked[field] = isPlainObject(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, MASK])) : MASK;
  }
  if (typeof masked.url === "string" && !masked.url.includes("${")) masked.url = redactUrl(masked.url);
  return masked;
}
