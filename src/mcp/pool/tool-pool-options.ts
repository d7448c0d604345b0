import type { AuthContext } from "../auth/server-authorizer.ts";
import type { ElicitationHandler } from "../client/elicitation.ts";
import type { EraMemory } from "../client/era-memory.ts";
import type { RootsProvider } from "../client/roots.ts";
import type { ServerConfig } from "../config/server-config.ts";
import type { TransportContext } from "../transport/create-transport.ts";
import type { Transport } from "../transport/transport.ts";
import type { Clock } from "../../system/clock.ts";

/** How a pool is made: what its servers may ask and are told, and the seams tests use. */
export interface ToolPoolOptions {
  /** Builds the transport of an entry; tests swap in fakes. */
  createTransport?: (config: ServerConfig, context: TransportContext) => Transport;
  /** OAuth for HTTP servers: where tokens live, and who may sign in (see AuthContext). Absent: none. */
  auth?: AuthContext;
  /** The folders every server is told it may work in (`roots/list`). */
  roots?: RootsProvider;
  /**
   * Answers the servers' questions (elicitation). Only a pool made with one declares the capability;
   * a front end with a terminal takes them over later (`pool.answerQuestionsWith`).
   */
  elicitation?: ElicitationHandler;
  /** Which era each configuration spoke last time ($CAT_CODE_HOME); absent: every connect probes afresh. */
  eraMemory?: EraMemory;
  /**
   * Whether to hear of tools that change while connected (default true). A one-shot command turns it
   * off: a 2026-07-28 server would otherwise get a `subscriptions/listen` stream opened for nothing.
   */
  watchChanges?: boolean;
  /**
   * Hears the warnings about a server's tools (one left out, a re-listing that failed) in place of
   * the log: the connection keeper hands them to each command that connects the server.
   */
  onWarning?: (message: string) => void;
  /** Turns on `restartCrashedServers` from the start, with these delays. */
  restartCrashed?: { delaysMs?: readonly number[] };
  /** Where connect times and restart delays get their time; tests hand in a fake. */
  clock?: Clock;
}
