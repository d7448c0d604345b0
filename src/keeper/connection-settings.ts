/** How the keeper holds one connection for its commands: whose sign-in it uses, and how long it stays without use. */
import { CredentialsStore } from "../mcp/auth/credentials-store.ts";
import type { AuthContext } from "../mcp/auth/server-authorizer.ts";
import { MAX_TIMEOUT_MS, type ServerEntry } from "../mcp/config/server-config.ts";
import { cliSignInHint } from "../terminal/render-status.ts";
import { keepAliveSetting } from "./keep-alive-setting.ts";

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

/** The entry's `keepAlive`, else CAT_CODE_KEEP_ALIVE (the command's, then the keeper's), else the default; in ms. */
export function keepAliveMs(entry: ServerEntry, launchEnv: Record<string, string>, keeperEnv: Record<string, string | undefined>): number {
  const own = entry.ok ? entry.config.keepAlive : undefined;
  const seconds = own ?? keepAliveSetting(launchEnv.CAT_CODE_KEEP_ALIVE) ?? keepAliveSetting(keeperEnv.CAT_CODE_KEEP_ALIVE) ?? DEFAULT_KEEP_ALIVE_SECONDS;
  return Math.min(seconds * 1000, MAX_TIMEOUT_MS);
}
