import { createTransport, type EraMemory, EraMemoryHandles, hasStoredTokens, RootsProvider, ServerConnection, type Transport, type TransportContext } from "../mcp/index.ts";
import type { ServerConfig } from "../mcp/config/server-config.ts";
import { keeperAuth } from "./connection-settings.ts";
import type { ServerRequest } from "./keeper-protocol.ts";
import { callFor, forEachSocket, isHttp, type Warm } from "./warm-connection.ts";

/** A server that gets more of its tools left out than this is not worth more lines. */
const MAX_WARNINGS_KEPT = 100;

export interface WarmStart {
  request: ServerRequest;
  roots: string[];
  fingerprint: string;
  entryKey: string;
  /** Whether the server is told someone answers its questions (see the `connect` request). */
  elicitation: boolean;
  now: number;
  keepAliveMs: number;
  /** False once the keeper stops: the connection is made but never connects. */
  connect: boolean;
  eraMemory?: EraMemory;
  createTransport?: (config: ServerConfig, context: TransportContext) => Transport;
}

/**
 * One new warm connection: a connection to the server, started as the command's own pool would
 * start it (its launch context, roots and capabilities), whose log lines and questions go to the
 * commands using it at the time. `ready` resolves with its status once it has connected (or failed).
 */
export function startWarm(start: WarmStart): Warm {
  const { request, fingerprint, now } = start;
  const { entry, launch } = request;
  const make = start.createTransport ?? createTransport;
  const auth = keeperAuth(entry);
  const connection = new ServerConnection(entry, {
    // Not over HTTP: a 2026-07-28 server's `subscriptions/listen` is a stream held open while idle.
    // An idle HTTP connection lists its tools again instead (see WarmConnections.reuse).
    watchChanges: !isHttp(entry),
    // Closing the connection waits for the era memory writes it started.
    eraMemory: start.eraMemory && new EraMemoryHandles(start.eraMemory),
    auth,
    roots: rootsOf(start.roots),
    createTransport: (config, context) => (warm.transport = make(config, { ...context, launch })),
    // Declared only as the command's own pool would (else a server may list other tools); who
    // answers is the call that is under way (see callFor).
    elicitation: start.elicitation
      ? (question, signal) => {
          const call = callFor(warm, signal);
          return call ? call.elicitation(question, signal) : Promise.resolve({ action: "decline" });
        }
      : undefined,
    onWarning: (message) => {
      if (warm.warnings.length < MAX_WARNINGS_KEPT) warm.warnings.push(message);
    },
  });
  const warm: Warm = {
    fingerprint,
    entryKey: start.entryKey,
    request,
    connection,
    auth,
    signedIn: hasStoredTokens(entry, auth),
    ready: Promise.resolve(connection.status),
    connecting: true,
    createdAt: now,
    lastUsed: now,
    calls: 0,
    listeners: new Set(),
    holders: new Set(),
    warnings: [],
    keepAliveMs: start.keepAliveMs,
  };
  connection.on("log", (logged) => forEachSocket(warm, (listener) => listener.onLog(logged)));
  warm.ready = (start.connect ? connection.connect() : Promise.resolve()).then(() => {
    warm.connecting = false;
    return connection.status;
  });
  return warm;
}

function rootsOf(roots: string[]): RootsProvider | undefined {
  const [first, ...rest] = roots;
  return first === undefined ? undefined : new RootsProvider(first, rest);
}
