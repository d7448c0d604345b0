import type { ElicitationHandler } from "../client/elicitation.ts";
import type { EraMemory } from "../client/era-memory.ts";
import type { ServerConnectionOptions } from "./server-connection-options.ts";

/**
 * How a pool is made: what its servers may ask and are told, and the seams tests use. The options
 * every server's connection shares are ServerConnectionOptions' (the pool hands them on).
 */
export interface ServerPoolOptions extends Pick<ServerConnectionOptions, "createTransport" | "auth" | "roots" | "watchChanges" | "onWarning" | "clock"> {
  /**
   * Answers the servers' questions (elicitation). Only a pool made with one declares the capability;
   * a front end with a terminal takes them over later (`pool.answerQuestionsWith`).
   */
  elicitation?: ElicitationHandler;
  /**
   * `mcp serve`'s pool: its servers' sampling requests and their `roots/list` during a call are
   * passed to the front end that takes the questions over with a relay (`answerQuestionsWith`), and
   * a round's input requests are asked together. Only such a pool declares `sampling`.
   */
  relayToClients?: boolean;
  /** Which era each configuration spoke last time ($CAT_CODE_HOME); absent: every connect probes afresh. */
  eraMemory?: EraMemory;
  /** Turns on `restartCrashedServers` from the start, with these delays. */
  restartCrashed?: { delaysMs?: readonly number[] };
}
