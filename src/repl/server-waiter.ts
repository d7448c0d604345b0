import type { ServersWaited, ServerWaiter } from "../agent/tools/wait-for-servers-tool.ts";
import type { ServerPool, ServerStatus } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import { firstLine } from "../terminal/terminal-text.ts";

/** The connect timeout a server without its own `timeout` gets here: how long the model may wait for one. */
export const DEFAULT_SERVER_WAIT_MS = 60_000;
/** How much of a failure's reason the model reads (the rest of a crash's stderr is the server's). */
const MAX_REASON_CHARS = 200;

/**
 * `wait_for_mcp_servers` over the pool: waits on the pool's `server` events (no polling) until each
 * server waited for has connected or failed, at most the longest connect timeout among them (60 s
 * when none is set), or until the user cancels the turn.
 */
export function poolServerWaiter(pool: ServerPool, clock: Clock = systemClock): ServerWaiter {
  const connecting = () => pool.status().filter((status) => status.state === "pending").map((status) => status.name);
  const boundFor = (names: string[]) =>
    Math.max(DEFAULT_SERVER_WAIT_MS, ...names.map((name) => {
      const entry = pool.entry(name);
      return entry?.ok ? (entry.config.timeout ?? 0) : 0;
    }));
  return {
    connecting,
    get boundMs() {
      return boundFor(connecting());
    },
    async wait(names, signal) {
      const known = new Set(pool.status().map((status) => status.name));
      const wanted = (names ?? connecting()).filter((name) => known.has(name));
      // Asked at every server's event: by name, not a walk over every server per name waited for.
      const stillPending = () => wanted.filter((name) => pool.statusOf(name)?.state === "pending");
      if (stillPending().length > 0 && !signal?.aborted) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clock.clearTimeout(timer);
            stopListening();
            signal?.removeEventListener("abort", done);
            resolve();
          };
          const timer = clock.setTimeout(done, boundFor(wanted));
          const stopListening = pool.on("server", () => stillPending().length === 0 && done());
          signal?.addEventListener("abort", done, { once: true });
        });
      }
      return outcome(pool.status(), wanted, (names ?? []).filter((name) => !known.has(name)));
    },
  };
}

function outcome(statuses: ServerStatus[], wanted: string[], unknown: string[]): ServersWaited {
  const waited: ServersWaited = { connected: [], failed: [], pending: [], unknown, unavailable: [] };
  for (const status of statuses) {
    if (!wanted.includes(status.name)) continue;
    if (status.state === "connected") waited.connected.push({ name: status.name, tools: status.tools.length });
    else if (status.state === "failed" || status.state === "invalid") waited.failed.push({ name: status.name, reason: cutText(firstLine(status.reason), MAX_REASON_CHARS) });
    else if (status.state === "pending") waited.pending.push(status.name);
    else waited.unavailable.push({ name: status.name, state: status.state });
  }
  return waited;
}
