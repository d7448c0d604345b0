import { log } from "../../log.ts";
import type { ServerStatus } from "./server-status.ts";

type Connected = Extract<ServerStatus, { state: "connected" }>;
type Failed = Extract<ServerStatus, { state: "failed" }>;

/**
 * What happens to a server after the pool was made, as it happens: the front ends show it, the
 * agent session tells the model. Its tools are already in (or out of) every registry when it fires.
 */
export type ServerEvent =
  /** Connected, its tools registered: `start` the first connect, `restart` an automatic one after a crash, `reconnect` the user's. */
  | { kind: "connected"; server: string; status: Connected; after: "start" | "restart" | "reconnect" }
  /** A connect that did not succeed (failed, needs-auth). */
  | { kind: "not-connected"; server: string; status: ServerStatus; after: "start" | "restart" | "reconnect" }
  /** It was connected and went away by itself; its tools are gone. `restartInMs`: an automatic restart is scheduled. */
  | { kind: "lost"; server: string; status: Failed; restartInMs: number | undefined };

/** The listeners of a pool's server events; one that throws is logged, never breaks the pool. */
export class ServerEvents {
  private readonly listeners = new Set<(event: ServerEvent) => void>();

  /** Adds a listener; returns what removes it. */
  listen(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        log.debug(`a listener of MCP server events failed on ${event.kind}: ${(error as Error).message}`);
      }
    }
  }
}
