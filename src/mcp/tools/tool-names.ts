import { sha256Hex } from "../../system/light-crypto.ts";
import { sanitizeNamePart } from "../../system/name-part.ts";

export { sanitizeNamePart };

/** The Anthropic API's limit for a tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** A short hash that is the same on every run, so a cut name stays stable across sessions. */
export function stableHash(text: string): string {
  return sha256Hex(text).slice(0, 8);
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

/** One tool of one server and the name it is registered under. */
export interface NamedTool<T extends { name: string }> {
  name: string;
  server: string;
  definition: T;
}

/**
 * The names a set of servers' tools get in one registry, in order: `mcp__<server>__<tool>`, and a
 * name that is taken (by `taken`, or by an earlier tool here: two tools that sanitize alike, or a cut
 * name) gets a stable hash suffix and a warning, so both stay callable; a tool listed twice is
 * skipped with a warning. Pure: the pool and `mcp tools` (which has no clients when it goes through
 * the keeper) name alike.
 */
export function assignToolNames<T extends { name: string }>(
  servers: Array<{ server: string; tools: T[] }>,
  taken: (name: string) => boolean = () => false,
  warn: (line: string) => void = () => {},
): Array<NamedTool<T>> {
  const named: Array<NamedTool<T>> = [];
  const used = new Set<string>();
  const isTaken = (name: string) => used.has(name) || taken(name);
  for (const { server, tools } of servers) {
    for (const definition of tools) {
      let name = namespacedToolName(server, definition.name);
      if (isTaken(name)) {
        const distinct = withSuffix(name, stableHash(`${server}\u0000${definition.name}`));
        warn(`MCP tool '${definition.name}' of server '${server}' maps to ${name}, which is taken; registered as ${distinct}`);
        name = distinct;
      }
      if (isTaken(name)) {
        warn(`MCP tool '${definition.name}' of server '${server}' is listed twice; the second is skipped`);
        continue;
      }
      used.add(name);
      named.push({ name, server, definition });
    }
  }
  return named;
}
