import { createHash } from "node:crypto";

/** The Anthropic API's limit for a tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * Keeps `[A-Za-z0-9_-]`, turning each run of anything else into `_`. A part with no letter or digit
 * left says nothing about its origin and sanitizes to the empty string.
 */
export function sanitizeNamePart(part: string): string {
  const sanitized = part.replace(/[^A-Za-z0-9_-]+/g, "_");
  return /[A-Za-z0-9]/.test(sanitized) ? sanitized : "";
}

/** A short hash that is the same on every run, so a cut name stays stable across sessions. */
export function stableHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * `mcp__<server>__<tool>`, each part sanitized, at most 64 characters. A longer name is cut and
 * ends with a hash of the original parts, so two long names that share a prefix stay apart.
 */
export function namespacedToolName(server: string, tool: string): string {
  const toolPart = sanitizeNamePart(tool) || `tool_${stableHash(tool)}`;
  const name = `mcp__${sanitizeNamePart(server)}__${toolPart}`;
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  return withSuffix(name, stableHash(`${server}\u0000${tool}`));
}

/** `name_<suffix>`, cut so the whole stays within 64 characters. */
export function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}
