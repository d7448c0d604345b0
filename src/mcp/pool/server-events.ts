import { log } from "../../log.ts";
import type { ServerLogEntry } from "../client/server-log.ts";
import type { ToolDefinition } from "../protocol.ts";
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

/** Everything a pool (or a lone connection) tells its listeners, by event name. */
export interface ServerEventMap {
  /** A server connected, failed to, or went away. */
  server: ServerEvent;
  /**
   * A server's tools changed and were registered anew: it announced `tools/list_changed`, or the
   * user reconnected it (the REPL says so).
   */
  "tools-changed": { server: string; tools: ToolDefinition[] };
  /** `notifications/resources/updated` of a connected server, for a URI it was subscribed to. */
  "resource-updated": { server: string; uri: string };
  /** A connected server announced that its resources (or resource templates) or prompts changed (`notifications/<list>/list_changed`). */
  "list-changed": { server: string; list: "resources" | "prompts" };
  /** A server's log message, named by the server's config name (every one also goes to the debug log). */
  log: ServerLogEntry;
}

export type ServerEventName = keyof ServerEventMap;

/**
 * The listeners of a pool's events: any number per event, each added with `on` and removed by what
 * it returns, so two front ends (or a front end and the agent session) never take each other's
 * place. One that throws is logged, never breaks the pool or the listeners after it.
 */
export class ServerEvents {
  private readonly listeners: { [K in ServerEventName]: Set<(event: ServerEventMap[K]) => void> } = {
    server: new Set(),
    "tools-changed": new Set(),
    "resource-updated": new Set(),
    "list-changed": new Set(),
    log: new Set(),
  };

  /** Adds a listener; returns what removes it. */
  on<K extends ServerEventName>(name: K, listener: (event: ServerEventMap[K]) => void): () => void {
    const listeners = this.listeners[name] as Set<(event: ServerEventMap[K]) => void>;
    // Wrapped, so the same function added twice is two listeners, and each unsubscribe removes its own.
    const added = (event: ServerEventMap[K]) => listener(event);
    listeners.add(added);
    return () => void listeners.delete(added);
  }

  emit<K extends ServerEventName>(name: K, event: ServerEventMap[K]): void {
    for (const listener of [...(this.listeners[name] as Set<(event: ServerEventMap[K]) => void>)]) {
      try {
        listener(event);
      } catch (error) {
        log.debug(`a listener of MCP ${name} events failed: ${(error as Error).message}`);
      }
    }
  }
}
