/** What `mcp get` shows instead of a secret. */
export const MASK = "***";

/**
 * The entry as written, with every env and header value replaced by `***`: those are where tokens
 * live. Keys stay, so the user still sees which variables and headers are set.
 */
export function maskedEntry(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const masked: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const field of ["env", "headers"]) {
    const value = masked[field];
    if (value === undefined) continue;
    masked[field] =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.keys(value).map((key) => [key, MASK]))
        : MASK;
  }
  return masked;
}
