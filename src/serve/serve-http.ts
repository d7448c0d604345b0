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

/**
 * `cat-code mcp serve --http`: the endpoint on `host:port`, its servers connecting meanwhile (the
 * lists wait for them), list changes and server logs passed on to the handshake sessions that
 * listen. Returns the endpoint, listening; its `stop()` ends every session.
 */
export function serveHttp(pool: ServerPool, options: ServeHttpOptions): HttpEndpoint {
  const methods = new ServeMethods(pool, pool.connectAll(), { builtins: options.builtins, namespaced: options.namespaced });
  methods.questions.attach(pool);
  const endpoint = new HttpEndpoint(methods, { host: options.host, port: options.port, token: options.token, instructions: () => unavailableServers(pool.status(), options.namespaced) });
  announceListChanges(pool, (method) => endpoint.broadcast((session) => session.announce(method, {})));
  pool.on("log", (entry) => endpoint.broadcast((session) => session.downstream.forwardLog(entry)));
  return endpoint;
}
