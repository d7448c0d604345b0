import type { ServerPool } from "../mcp/index.ts";

/**
 * The pool's changes as the `list_changed` notifications a client of `mcp serve` hears: a server's
 * own announcement of its tools, resources or prompts, and a server that came or went (every list
 * of it changed with it). The first connects end before any list is answered (the lists wait for
 * them): nothing to announce then. Returns what stops listening.
 */
export function announceListChanges(pool: ServerPool, announce: (method: string) => void): () => void {
  const all = () => {
    for (const list of ["tools", "resources", "prompts"]) announce(`notifications/${list}/list_changed`);
  };
  const stops = [
    pool.on("tools-changed", () => announce("notifications/tools/list_changed")),
    pool.on("list-changed", ({ list }) => announce(`notifications/${list}/list_changed`)),
    pool.on("server", (event) => (event.kind === "lost" || event.after !== "start" ? all() : undefined)),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
