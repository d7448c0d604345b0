import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "../../helpers/paths.ts";

/**
 * The layers of DESIGN.md, each with the layers it may import from (besides itself). Arrows run one
 * way: cli -> repl -> terminal -> agent and mcp -> system (cli -> keeper -> terminal: the connection keeper); inside mcp, pool -> tools -> client ->
 * rpc -> transport -> auth -> config. The MCP adapter and pool know the agent's Tool interface (the seed's design);
 * nothing in agent knows MCP.
 */
const ALLOWED: Record<string, string[]> = {
  cli: ["repl", "keeper", "terminal", "settings", "agent", "mcp/pool", "mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "system", "root"],
  // The connection keeper: a process that holds pools for commands; it renders nothing but the notes a command would print.
  keeper: ["terminal", "agent", "mcp/pool", "mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "system", "root"],
  repl: ["terminal", "settings", "agent", "mcp/pool", "mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "system", "root"],
  terminal: ["settings", "agent", "mcp/pool", "mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "system", "root"],
  // settings.json (user and project): model, permission rules, environment. DESIGN.md's config layer holds
  // both files, so it reuses the mcp.json machinery (fail-open reading, locked edits); the front ends read it.
  settings: ["mcp/config", "mcp", "system", "root"],
  agent: ["system", "root"],
  "mcp/pool": ["mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "agent", "system", "root"],
  "mcp/tools": ["mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "agent", "system", "root"],
  "mcp/client": ["mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "system", "root"],
  "mcp/rpc": ["mcp/transport", "mcp", "system", "root"],
  // Moves messages only: it must not know the connection above it (ids, replies, cancellation).
  "mcp/transport": ["mcp/auth", "mcp/config", "mcp", "system", "root"],
  // OAuth sign-in: called by the HTTP transport, knows nothing of it nor of the CLI.
  "mcp/auth": ["mcp/config", "mcp", "system", "root"],
  "mcp/config": ["mcp", "system", "root"],
  mcp: ["system", "root"],
  system: ["root"],
  root: [],
};

/** The layer a file belongs to; ".." for a file outside src (package.json). */
function layerOf(file: string): string {
  const path = relative(join(REPO, "src"), file).split("/");
  if (path[0] === "..") return "..";
  if (path.length === 1) return "root";
  if (path[0] === "mcp") return path.length === 2 ? "mcp" : `mcp/${path[1]}`;
  return path[0] as string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

test("no file imports from a layer above its own", () => {
  const upward: string[] = [];
  for (const file of sourceFiles(join(REPO, "src"))) {
    const from = layerOf(file);
    expect(ALLOWED[from]).toBeDefined();
    const text = readFileSync(file, "utf8");
    // Static and dynamic imports and re-exports of relative paths.
    for (const [, path] of text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const to = layerOf(resolve(dirname(file), path as string));
      if (to !== ".." && to !== from && !ALLOWED[from]?.includes(to)) upward.push(`${relative(REPO, file)} (${from}) imports ${path} (${to})`);
    }
  }
  expect(upward).toEqual([]);
});
