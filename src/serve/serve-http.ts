import type { ServerPool } from "../mcp/index.ts";
import { HttpEndpoint } from "./http-endpoint.ts";
import { announceListChanges } from "./list-announcements.ts";
import type { ServedBuiltins } from "./served-builtins.ts";
import { ServeMethods } from "./serve-methods.ts";
import { unavailableServers } from "./serve-stdio.ts";

export interface ServeHttpOptions {
  host: string;
  port: number;
  token: string;
  builtins?: ServedBuiltins;
  /** False: the one server's tools and prompts under their own names (`--no-namespace`). */
  namespaced?: boolean;
}

/** A listening `mcp serve --http`. */
export interface ServedEndpoint {
  readonly url: string;
  /** Ends every session, stops listening, and gives the pool's questions and events back. */
  stop(): Promise<void>;
}

/**
 * `cat-code mcp serve --http`: the endpoint on `host:port`, its servers connecting meanwhile (the
 * lists wait for them), list changes and server logs passed on to the handshake sessions that
 * listen. Returns the endpoint, listening.
 */
export function serveHttp(pool: ServerPool, options: ServeHttpOptions): ServedEndpoint {
  const methods = new ServeMethods(pool, pool.connectAll(), { builtins: options.builtins, namespaced: options.namespaced });
  const endpoint = new HttpEndpoint(methods, { host: options.host, port: options.port, token: options.token, instructions: () => unavailableServers(pool.status(), options.namespaced) });
  // Attached once the endpoint listens: a port in use throws above and leaves the pool as it was.
  const releases = [
    methods.questions.attach(pool),
    announceListChanges(pool, (method) => endpoint.broadcast((session) => session.announce(method, {}))),
    pool.on("log", (entry) => endpoint.broadcast((session) => session.downstream.forwardLog(entry))),
  ];
  return {
    url: endpoint.url,
    async stop() {
      await endpoint.stop();
      for (const release of releases) release();
    },
  };
}
