/** How the keeper holds one connection for its commands: whose sign-in it uses, and how long it stays without use. */
import { type AuthContext, CredentialsStore } from "../mcp/index.ts";
import { MAX_TIMEOUT_MS, type ServerEntry } from "../mcp/config/server-config.ts";
import { cliSignInHint } from "../terminal/render-status.ts";
import { keepAliveSeconds } from "./keep-alive-setting.ts";

/** How long a connection stays without use when neither its entry nor CAT_CODE_KEEP_ALIVE says. */
export const DEFAULT_KEEP_ALIVE_SECONDS = 600;

/**
 * OAuth as `mcp call` has it: the user's stored tokens, nobody to send to a browser (a server that
 * wants a sign-in is NEEDS-AUTH), and the command that signs in to it, as the command would name it.
 */
export function keeperAuth(entry: ServerEntry): AuthContext {
  const loginHint = cliSignInHint({
    ...(entry.scope === "ad-hoc" && entry.ok && entry.config.type === "http" ? { url: entry.config.url } : {}),
    ...(entry.scope === "flag" ? { "mcp-config": entry.source } : {}),
  });
  return { store: new CredentialsStore(), loginHint };
}

/**
 * In ms, as keepAliveSeconds chooses it (the command wrote its `--keep-alive` into the entry: see
 * withKeepAlive), with CAT_CODE_KEEP_ALIVE of the command's launch env, then of the keeper's own.
 */
export function keepAliveMs(entry: ServerEntry, launchEnv: Record<string, string>, keeperEnv: Record<string, string | undefined>): number {
  const seconds = keepAliveSeconds(entry, undefined, [launchEnv, keeperEnv]) ?? DEFAULT_KEEP_ALIVE_SECONDS;
  return Math.min(seconds * 1000, MAX_TIMEOUT_MS);
}
