import { assignToolNames } from "../mcp/text-index.ts";

/** The prefix the agent's registry puts before every MCP tool; a client of `mcp serve` sees the rest. */
const REGISTRY_PREFIX = "mcp__";

/** One upstream item (a tool, a prompt) and the name a client of `mcp serve` calls it by. */
export interface ServedItem<T extends { name: string }> {
  /** `<server>__<name>`, sanitized, at most 59 characters. */
  name: string;
  server: string;
  definition: T;
}

/**
 * The names the upstream servers' tools or prompts are served under: `<server>__<name>`. They are
 * the agent registry's names without its `mcp__` prefix, so a collision (two names that sanitize
 * alike, a cut name) is resolved exactly as the registry resolves it: a stable hash suffix and a
 * warning, both kept callable; an item listed twice is served once.
 */
export function servedNames<T extends { name: string }>(
  servers: Array<{ server: string; items: T[] }>,
  warn: (line: string) => void = () => {},
): Array<ServedItem<T>> {
  const named = assignToolNames(
    servers.map(({ server, items }) => ({ server, tools: items })),
    undefined,
    warn,
  );
  return named.map(({ name, server, definition }) => ({ name: name.slice(REGISTRY_PREFIX.length), server, definition }));
}
