/**
 * One part of a namespaced name, as tool names (`mcp__<server>__<tool>`) and permission rules
 * (`mcp__<server>`) write it: keeps `[A-Za-z0-9_-]`, turning each run of anything else into `_`. A
 * part with no letter or digit left says nothing about its origin and sanitizes to the empty string.
 * One function for both, so a rule names a server exactly as its tools are named.
 */
export function sanitizeNamePart(part: string): string {
  const sanitized = part.replace(/[^A-Za-z0-9_-]+/g, "_");
  return /[A-Za-z0-9]/.test(sanitized) ? sanitized : "";
}
