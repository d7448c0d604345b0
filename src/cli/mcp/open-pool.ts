import { type AuthContext, CredentialsStore, EraMemory, ServerPool, type ServerPoolOptions } from "../../mcp/index.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { cliSignInHint } from "../../terminal/render-status.ts";
import { onShutdown } from "../../terminal/shutdown.ts";
import type { ServerSourceOptions } from "./server-selection.ts";

// Apart from server-selection.ts: a command that goes through the keeper loads none of this.

/**
 * OAuth as a command sees it: the tokens in $CAT_CODE_HOME/credentials.json, nobody to send to a
 * browser (a server that wants a sign-in is NEEDS-AUTH), and the command that signs in to it.
 */
export function cliAuth(source: ServerSourceOptions): AuthContext {
  return { store: new CredentialsStore(), loginHint: cliSignInHint(source) };
}

/**
 * A pool whose servers are closed on every way out of the command, signals included, and which
 * remembers each server's protocol era in $CAT_CODE_HOME, so the next command skips the probe.
 */
export function openPool(entries: ServerEntry[], options: ServerPoolOptions = {}, source: ServerSourceOptions = {}): ServerPool {
  const pool = new ServerPool(entries, { eraMemory: new EraMemory(), ...options, auth: options.auth ?? cliAuth(source) });
  onShutdown(() => pool.closeAll());
  return pool;
}
