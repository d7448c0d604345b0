/** How the keeper holds one connection for its commands: whose sign-in it uses, and how long it stays without use. */
import { CredentialsStore } from "../mcp/auth/credentials-store.ts";
import type { AuthContext } from "../mcp/auth/server-authorizer.ts";
import { shellQuote } from "../mcp/config/launch-summary.ts";
import { MAX_TIMEOUT_MS, type ServerEntry } from "../mcp/config/server-config.ts";
import { redactUrl } from "../system/redact-url.ts";
import { cliLoginHint } from "../terminal/render-status.ts";
import { keepAliveSetting } from "./keep-alive-setting.ts";

/** How long a connection stays without use when neither its entry nor CAT_CODE_KEEP_ALIVE says. */
export const DEFAULT_KEEP_ALIVE_SECONDS = 600;

/**
 * OAuth as `mcp call` has it: the user's stored tokens, nobody to send to a browser (a server that
 * wants a sign-in is NEEDS-AUTH), and the command that signs in to it, as the command would name it.
 */
export function keeperAuth(entry: ServerEntry): AuthContext {
  const loginHint = (name: string): string => {
    if (entry.scope === "ad-hoc" && entry.ok && entry.config.type === "http") return `cat-code mcp login --url ${shellQuote(redactUrl(entry.config.url))}`;
    if (entry.scope === "flag") return `cat-code mcp login --mcp-config ${shellQuote(entry.source)} ${shellQuote(name)}`;
    return cliLoginHint(shellQuote(name));
  };
  return { store: new CredentialsStore(), loginHint };
}

/** The entry's `keepAlive`, else CAT_CODE_KEEP_ALIVE (the command's, then the keeper's), else the default; in ms. */
export function keepAliveMs(entry: ServerEntry, launchEnv: Record<string, string>, keeperEnv: Record<string, string | undefined>): number {
  const own = entry.ok ? entry.config.keepAlive : undefined;
  const seconds = own ?? keepAliveSetting(launchEnv.CAT_CODE_KEEP_ALIVE) ?? keepAliveSetting(keeperEnv.CAT_CODE_KEEP_ALIVE) ?? DEFAULT_KEEP_ALIVE_SECONDS;
  return Math.min(seconds * 1000, MAX_TIMEOUT_MS);
}
