import type { AuthContext } from "../auth/server-authorizer.ts";
import type { ElicitationHandler } from "../client/elicitation.ts";
import type { RequestRelay } from "../client/request-relay.ts";
import type { RootsProvider } from "../client/roots.ts";
import type { ServerConfig } from "../config/server-config.ts";
import type { TransportContext } from "../transport/create-transport.ts";
import type { Transport } from "../transport/transport.ts";
import type { Clock } from "../../system/clock.ts";
import type { AutoRestarts } from "./auto-restarts.ts";
import type { EraMemoryHandles } from "./era-memory-handles.ts";
import type { ServerEvents } from "./server-events.ts";
import type { ToolRegistrations } from "./tool-registrations.ts";

/** How a connection is made: what its server may ask and is told, where its news goes, and the seams tests use. */
export interface ServerConnectionOptions {
  /** Builds the transport of an entry; tests swap in fakes. */
  createTransport?: (config: ServerConfig, context: TransportContext) => Transport;
  /** OAuth for HTTP servers: where tokens live, and who may sign in (see AuthContext). Absent: none. */
  auth?: AuthContext;
  /** The folders every server is told it may work in (`roots/list`). */
  roots?: RootsProvider;
  /** Answers the server's questions. Only a connection made with one declares the capability. */
  elicitation?: ElicitationHandler;
  /** A gateway's relay of sampling and in-call roots (only then is sampling declared). */
  relay?: RequestRelay;
  /** Answers a round's input requests side by side (see ClientFeatureOptions). */
  inputRequestsTogether?: boolean;
  /** Which era each configuration spoke last time; its writes are waited for on close. */
  eraMemory?: EraMemoryHandles;
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
  /** Where connect times and restart delays get their time; tests hand in a fake. */
  clock?: Clock;
  /** Where its events go; the pool hands all its connections its own, so one listener hears every server. */
  events?: ServerEvents;
  /** Where its tools are registered while it is connected (the pool's registries); absent: nowhere. */
  registrations?: ToolRegistrations;
  /** The automatic restarts after a crash, when its holder turned them on (read at each loss). */
  restarts?: () => AutoRestarts | undefined;
}
