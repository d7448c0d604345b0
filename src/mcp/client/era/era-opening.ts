import { log } from "../../../log.ts";
import type { Clock } from "../../../system/clock.ts";
import { failedAt, McpError } from "../../mcp-error.ts";
import type { JsonRpcResponse } from "../../protocol.ts";
import { MODERN_PROTOCOL_VERSION } from "../../stateless-protocol.ts";
import type { Transport } from "../../transport/transport.ts";
import { answeredByServer, detectEra, fromDiscoverResult, PROBE_STEP, PROBE_WINDOW_MS, type EraFinding, type ModernServer } from "../era-detection.ts";
import type { EraRecord, RecalledEra } from "../era-memory.ts";
import { ProbeWindow } from "../probe-window.ts";
import { isModernError, type Era } from "../version-negotiation.ts";

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

/** What opening the era needs of the client. */
export interface EraOpeningHost {
  readonly transport: Transport;
  readonly clock: Clock;
  /** The client's timeout: the connect's, unless the connect names its own. */
  readonly timeoutMs: number;
  readonly memory: BoundEraMemory | undefined;
  /** See McpClientOptions.skipProbe. */
  readonly skipProbe: boolean | undefined;
  /** The client's era now, and the version it speaks (once agreed). */
  era(): Era;
  protocolVersion(): string | undefined;
  /** Speaks the modern era from now on (the probe is a modern request). */
  useModern(): void;
  /** A request of the client's, in its era, within `options.timeoutMs`. */
  request(method: string, params: unknown, options: ProbeOptions): Promise<unknown>;
  /** The handshake (LegacyEra.handshake), within `options.timeoutMs`. */
  handshake(options: { signal?: AbortSignal; timeoutMs?: number }): Promise<void>;
  openModern(server: ModernServer): void;
  /** Whether the client is connected (a late probe answer after that is remembered at once). */
  connected(): boolean;
  /** Whether the connection ended by itself (a stdio server that exited) during connect. */
  connectionEnded(): boolean;
}

/** The probe's request options beyond a call's. */
export interface ProbeOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onAuthorizing?: (waiting: boolean) => void;
  registration?: { registered(id: number): void };
}

/**
 * One client's opening of its era (`openEra`), and what comes of the probe after it: the probe
 * sent within its window (ProbeWindow), its id kept for an answer that comes late, the era found
 * remembered for the next connection.
 */
export class EraOpening {
  /** The era probe's id, from its send until an answer to it came (on time or late). */
  private probeId: number | undefined;
  /** A late answer to the probe that said 2026-07-28 (see `lateAnswer`). */
  private lateModern: ModernServer | undefined;

  constructor(private readonly host: EraOpeningHost) {}

  /** Finds the era and opens it (`openEra`); a transport that names no kind gets the handshake only. */
  async open(options: { signal?: AbortSignal; timeoutMs?: number }): Promise<void> {
    const { host } = this;
    const { kind } = host.transport;
    if (kind === undefined) return host.handshake(options);
    await openEra({
      kind,
      timeoutMs: options.timeoutMs ?? host.timeoutMs,
      clock: host.clock,
      memory: host.memory,
      description: host.transport.description,
      handshake: (timeoutMs) => host.handshake({ ...options, timeoutMs }),
      discover: (windowMs, timeoutMs) => this.probe(windowMs, { ...options, timeoutMs }),
      openModern: (server) => host.openModern(server),
      connectionEnded: () => host.connectionEnded(),
      skipProbe: host.skipProbe,
    });
    const late = host.era() === "legacy" ? this.lateModern : undefined;
    host.memory?.remember(late ? { era: "modern", version: late.version } : { era: host.era(), version: host.protocolVersion() ?? "" });
  }

  /**
   * An answer to a request given up: news only if it is the era probe's. A dual-era server slow to
   * start (a first `npx` download) misses the probe's window and gets the handshake; once started it
   * reads the probe first and answers it, late. That answer counts: the server is remembered as
   * modern, and its next start waits for the probe (`probeWindowMs`). This connection keeps its era:
   * the server has pinned it with `initialize`, and a connection in use is not torn down for that.
   * Probing the running connection again would not tell: a server may pin a connection to the era
   * of its first request (SDK v2 answers -32601 there).
   */
  lateAnswer(response: JsonRpcResponse): void {
    if (this.probeId === undefined || String(response.id) !== String(this.probeId) || !("result" in response)) return;
    this.probeId = undefined;
    const finding = fromDiscoverResult(response.result);
    if (finding.era !== "modern" || this.host.era() === "modern") return;
    this.lateModern = finding;
    log.debug(`${this.host.transport.description}: answered the era probe late, as a ${MODERN_PROTOCOL_VERSION} server; its next connection speaks it`);
    // While connecting, `open` records it; after, it is recorded here.
    if (this.host.connected()) this.host.memory?.remember({ era: "modern", version: finding.version });
  }

  /** `server/discover`, the modern way, within the probe's window (see ProbeWindow) and the connect's timeout. */
  private async probe(windowMs: number, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown> {
    this.host.useModern();
    const window = new ProbeWindow(this.host.clock, "server/discover", windowMs);
    const signal = options.signal ? AbortSignal.any([options.signal, window.signal]) : window.signal;
    try {
      return await this.host.request("server/discover", {}, {
        timeoutMs: options.timeoutMs,
        signal,
        onAuthorizing: window.authorizing,
        // Kept: a slow server may answer after the window (see lateAnswer).
        registration: { registered: (id) => (this.probeId = id) },
      });
    } catch (error) {
      // The window's end reaches request() as an abort of its signal: it is the probe's timeout.
      throw window.expired() ?? error;
    } finally {
      window.end();
    }
  }
}
