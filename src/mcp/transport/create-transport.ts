import { serverEnvironment } from "../../system/own-secrets.ts";
import { type AuthContext, ServerAuthorizer } from "../auth/server-authorizer.ts";
import { type HttpServerConfig, type ServerConfig, setsOwnAuthorization } from "../config/server-config.ts";
import { HttpTransport } from "./http-transport.ts";
import { StdioTransport } from "./stdio-transport.ts";
import type { Transport } from "./transport.ts";

/** What a transport may need besides its entry: the entry's name and, for OAuth, the tokens' home. */
export interface TransportContext {
  serverName: string;
  auth?: AuthContext;
  /**
   * How a stdio server starts when someone else resolved it (the connection keeper, for a command):
   * exactly this env, and this cwd unless the entry names its own (relative to this one). Absent:
   * this process's env (without secrets, see serverEnvironment) and cwd.
   */
  launch?: { env: Record<string, string>; cwd: string };
}

export function createTransport(config: ServerConfig, context?: TransportContext): Transport {
  switch (config.type) {
    case "stdio": {
      const launch = context?.launch;
      return new StdioTransport({
        command: config.command,
        args: config.args,
        // Ours without our own and other tools' well-known secrets, then the entry's `env` on top.
        env: launch ? launch.env : serverEnvironment(config.env).env,
        cwd: config.cwd,
        baseDir: launch?.cwd,
      });
    }
    case "http":
      return new HttpTransport({ url: config.url, headers: config.headers, authorizer: authorizerFor(config, context) });
  }
}

/**
 * OAuth for an HTTP entry, unless its own headers already authorize it: a token the user put in
 * `headers` is theirs to manage, and is never replaced by one of ours.
 */
export function authorizerFor(config: HttpServerConfig, context: TransportContext | undefined): ServerAuthorizer | undefined {
  if (!context?.auth) return undefined;
  if (setsOwnAuthorization(config)) return undefined;
  return new ServerAuthorizer({ name: context.serverName, url: config.url, oauth: config.oauth }, context.auth);
}
