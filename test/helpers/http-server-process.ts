import type { Subprocess } from "bun";
import { spawnAnnounced } from "./listening-fixture.ts";

/** A server child process listening on 127.0.0.1, found by a line it prints once it listens. */
export interface ServerProcess {
  url: string;
  child: Subprocess<"ignore", "pipe", "pipe">;
  /** Kills the child and waits for it; safe to call twice. */
  stop(): Promise<void>;
}

/** How the HTTP fixtures of the 2026-07-28 work say they listen (`listening http://127.0.0.1:<port>/mcp`). */
export const LISTENING_ON_MCP = { ready: /listening http:\/\/127\.0\.0\.1:(\d+)\/mcp/, path: "/mcp" };

/**
 * Spawns `argv` and waits (generously, against hangs only) until stdout or stderr shows `ready`,
 * whose first group is the port. Output keeps being drained so a chatty server never blocks.
 */
export async function spawnServer(
  argv: string[],
  options: { ready: RegExp; path: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<ServerProcess> {
  const { child, match } = await spawnAnnounced(argv, { ...options, stdin: "ignore", label: argv.join(" ") });
  const stop = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  return { url: `http://127.0.0.1:${match[1]}${options.path}`, child, stop };
}

/** A port the OS just handed out and that is free again (for servers that cannot listen on 0). */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}
