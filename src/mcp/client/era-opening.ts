import { log } from "../../log.ts";
import type { Clock } from "../../system/clock.ts";
import { failedAt, McpError } from "../mcp-error.ts";
import { answeredByServer, detectEra, PROBE_STEP, PROBE_WINDOW_MS, type EraFinding, type ModernServer } from "./era-detection.ts";
import type { EraRecord, RecalledEra } from "./era-memory.ts";
import { isModernError } from "./version-negotiation.ts";

/** What the client is told of its server's era from earlier runs (the pool binds `EraMemory` to one entry). */
export interface BoundEraMemory {
  recall(): RecalledEra | undefined;
  remember(record: Omit<EraRecord, "at">): void;
  forget(): void;
}

/** The client's side of opening an era: the steps it knows how to take. */
export interface EraOpeningSteps {
  kind: "stdio" | "http";
  /** The connect's one timeout: probe and handshake share it. */
  timeoutMs: number;
  clock: Clock;
  memory: BoundEraMemory | undefined;
  /** For log lines. */
  description: string;
  /** `initialize` and its checks, within `timeoutMs`. */
  handshake(timeoutMs: number): Promise<void>;
  /**
   * `server/discover` the modern way: the server silent for `windowMs` (time spent on OAuth not
   * counted: probe-window.ts), or `timeoutMs` in all, is a timeout; resolves to its raw result.
   */
  discover(windowMs: number, timeoutMs: number): Promise<unknown>;
  openModern(server: ModernServer): void;
  /** Whether the connection ended by itself (a stdio server that exited). */
  connectionEnded(): boolean;
  /** Straight to the handshake: the server was started again because the probe ended it (the `McpError` kind `probe-ended`). */
  skipProbe?: boolean;
}

/**
 * Finds a server's era and opens it, within one timeout. A server remembered as legacy goes
 * straight to the handshake (a silent legacy stdio server would cost the probe's window every
 * time), unless the record is stale (era-memory.ts): then it is probed again, so a server that was
 * upgraded since moves to the modern era once it answers. If the server answers the handshake with
 * an error, the memory no longer holds: it is forgotten and the server probed. A silent server
 * costs at most the probe's window (`probeWindowMs`), and leaves the handshake the rest. A
 * failure names its step (the probe, initialize). Resolves to the era opened; the caller remembers it.
 */
export async function openEra(steps: EraOpeningSteps): Promise<"modern" | "legacy"> {
  const { kind, timeoutMs, clock, memory } = steps;
  const startedAt = clock.now();
  const left = () => Math.max(0, timeoutMs - (clock.now() - startedAt));
  const handshake = async () => {
    try {
      await steps.handshake(left());
    } catch (error) {
      // A server that answers neither fails as before, "initialize timed out after <timeout>"; only
      // our own timeout is renamed so: a server's error may carry the same code (-32001).
      const timedOut = error instanceof McpError && error.isTimeout && clock.now() - startedAt >= timeoutMs;
      throw timedOut ? McpError.timeout("initialize", timeoutMs) : failedAt("initialize", error);
    }
  };
  if (steps.skipProbe) {
    await handshake();
    return "legacy";
  }
  const remembered = memory?.recall();
  if (memory && remembered?.era === "legacy" && !remembered.stale) {
    try {
      await handshake();
      return "legacy";
    } catch (error) {
      if (!answeredByServer(error, steps.connectionEnded())) throw error;
      log.debug(`${steps.description}: the remembered legacy era failed (${(error as Error).message}); probing again`);
      memory.forget();
    }
  }
  const detect = async (probeMs: number): Promise<EraFinding> => {
    try {
      return await detectEra({ kind, connectionEnded: steps.connectionEnded, discover: () => steps.discover(probeMs, left()) });
    } catch (error) {
      throw failedAt(PROBE_STEP, error);
    }
  };
  const finding = await detect(probeWindowMs(remembered, timeoutMs));
  if (finding.era === "modern") {
    steps.openModern(finding);
    return "modern";
  }
  try {
    await handshake();
    return "legacy";
  } catch (error) {
    // A modern server still starting up misses the window, then refuses `initialize` with one of
    // the revision's own errors: ask it again, now that it listens, with the time left.
    if (!(finding.silent && error instanceof McpError && isModernError(error))) throw error;
    const second = await detect(left());
    if (second.era !== "modern") throw error;
    steps.openModern(second);
    return "modern";
  }
}

/**
 * How long the probe waits: the short window, unless the server is remembered as modern. Such a
 * server answered the probe before, perhaps late (slow to start, see McpClient.lateProbeAnswer):
 * it gets half the timeout, or every slow start would pin it to the handshake again. If it is
 * silent now, the handshake has the other half, and the server is remembered as legacy after it.
 */
function probeWindowMs(remembered: RecalledEra | undefined, timeoutMs: number): number {
  const trusted = remembered?.era === "modern" && !remembered.stale;
  return trusted ? timeoutMs / 2 : Math.min(PROBE_WINDOW_MS, timeoutMs / 2);
}
