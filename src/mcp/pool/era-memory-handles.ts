import type { EraMemory } from "../client/era-memory.ts";
import type { BoundEraMemory } from "../client/mcp-client.ts";
import type { ServerConfig } from "../config/server-config.ts";

/**
 * The pool's side of the era memory: each client gets a handle bound to its own configuration, and
 * the writes those handles start are kept here, so that closing the pool waits for them (a process
 * that exits mid-write would leave the lock file behind and lose the record).
 */
export class EraMemoryHandles {
  private readonly writes = new Set<Promise<void>>();

  constructor(private readonly memory: EraMemory) {}

  /** The handle of one configuration: recall reads the file, remember and forget write it in the background. */
  handleFor(config: ServerConfig): BoundEraMemory {
    return {
      recall: () => this.memory.recall(config),
      remember: (choice) => this.track(this.memory.remember(config, { era: choice.era, version: choice.version })),
      forget: () => this.track(this.memory.forget(config)),
    };
  }

  /** Resolves once every write started so far is done; EraMemory never rejects (a failed write is a debug line). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  private track(write: Promise<void>): void {
    const tracked = write.catch(() => {}).finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }
}
