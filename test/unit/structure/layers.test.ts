import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "../../helpers/paths.ts";

/**
 * The layers of DESIGN.md, each with the layers it may import from (besides itself). Arrows run one
 * way: cli -> repl -> terminal -> agent and mcp -> system (cli -> keeper -> terminal: the connection keeper); inside mcp, pool -> tools -> client ->
 * rpc -> transport -> auth -> config. The MCP adapter and pool know the agent's Tool interface (the seed's design);
 * nothing in agent knows MCP. The layers above mcp enter it by its front door ("mcp/door": index.ts and its
 * light sides light-index.ts and text-index.ts), config and protocol.ts only; the door may import every room behind it.
 */
const ALLOWED: Record<string, string[]> = {
  cli: ["repl", "keeper", "serve", "terminal", "settings", "agent", "mcp/door", "mcp/config", "mcp", "config", "system", "root"],
  // The connection keeper: a process that holds pools for commands; it renders nothing but the notes a command would print.
  keeper: ["terminal", "agent", "mcp/door", "mcp/config", "mcp", "config", "system", "root"],
  // `mcp serve`: an MCP server in front of the pool for other clients; a front end like cli and repl.
  serve: ["terminal", "settings", "agent", "mcp/door", "mcp/config", "mcp", "config", "system", "root"],
  repl: ["terminal", "settings", "agent", "mcp/door", "mcp/config", "mcp", "config", "system", "root"],
  terminal: ["settings", "agent", "mcp/door", "mcp/config", "mcp", "config", "system", "root"],
  // settings.json (user and project): model, permission rules, environment. DESIGN.md's config layer holds
  // both files: it reads and edits through src/config as mcp.json does (project trust sits beside mcp.json's approvals).
  settings: ["mcp/config", "mcp", "config", "system", "root"],
  agent: ["system", "root"],
  "mcp/door": ["mcp/pool", "mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "config", "system", "root"],
  "mcp/pool": ["mcp/tools", "mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "agent", "system", "root"],
  "mcp/tools": ["mcp/client", "mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "agent", "system", "root"],
  "mcp/client": ["mcp/rpc", "mcp/transport", "mcp/auth", "mcp/config", "mcp", "config", "system", "root"],
  "mcp/rpc": ["mcp/transport", "mcp", "system", "root"],
  // Moves messages only: it must not know the connection above it (ids, replies, cancellation).
  "mcp/transport": ["mcp/auth", "mcp/config", "mcp", "config", "system", "root"],
  // OAuth sign-in: called by the HTTP transport, knows nothing of it nor of the CLI.
  "mcp/auth": ["mcp/config", "mcp", "config", "system", "root"],
  "mcp/config": ["mcp", "config", "system", "root"],
  mcp: ["system", "root"],
  // The JSONC file machinery (read, edit, lock) and the app home: what mcp.json and settings.json share.
  config: ["system", "root"],
  system: ["root"],
  root: [],
};

/** src/mcp's front door: the one way in for the layers above it (with config/* and protocol.ts). */
const FRONT_DOOR = ["index.ts", "light-index.ts", "text-index.ts"];
/** The wire types of both protocol generations: what a server front end (serve) reads and answers. */
const WIRE_TYPES = ["protocol.ts", "stateless-protocol.ts"];
/** The layers that may enter src/mcp by its front door only. */
const THROUGH_THE_DOOR = ["cli", "repl", "serve", "keeper", "terminal", "settings"];

/** The layer a file belongs to; ".." for a file outside src (package.json). */
function layerOf(file: string): string {
  const path = relative(join(REPO, "src"), file).split("/");
  if (path[0] === "..") return "..";
  if (path.length === 1) return "root";
  if (path[0] === "mcp") return path.length > 2 ? `mcp/${path[1]}` : FRONT_DOOR.includes(path[1] as string) ? "mcp/door" : "mcp";
  return path[0] as string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of a source file (static and dynamic imports, re-exports), with its resolved path. */
function relativeImports(file: string): Array<{ path: string; target: string }> {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map(([, path]) => ({ path: path as string, target: resolve(dirname(file), path as string) }));
}

test("the layers above mcp enter it by its front door, config and protocol types only", () => {
  const mcp = join(REPO, "src", "mcp");
  const deep: string[] = [];
  for (const file of sourceFiles(join(REPO, "src")).filter((f) => THROUGH_THE_DOOR.includes(layerOf(f)))) {
    for (const { path, target } of relativeImports(file)) {
      const inside = relative(mcp, target);
      if (inside.startsWith("..") || FRONT_DOOR.includes(inside) || WIRE_TYPES.includes(inside) || inside.startsWith("config/")) continue;
      deep.push(`${relative(REPO, file)} imports ${path}: import it from src/mcp/index.ts (values a keeper-served command needs: from light-index.ts or text-index.ts; export it there if it is missing), or from src/mcp/config/* or src/mcp/protocol.ts`);
    }
  }
  expect(deep).toEqual([]);
});

test("no file imports from a layer above its own", () => {
  const upward: string[] = [];
  for (const file of sourceFiles(join(REPO, "src"))) {
    const from = layerOf(file);
    expect(ALLOWED[from]).toBeDefined();
    for (const { path, target } of relativeImports(file)) {
      const to = layerOf(target);
      if (to !== ".." && to !== from && !ALLOWED[from]?.includes(to)) upward.push(`${relative(REPO, file)} (${from}) imports ${path} (${to})`);
    }
  }
  expect(upward).toEqual([]);
});
