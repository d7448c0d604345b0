import type { ServerEntry } from "../mcp/config/server-config.ts";

/**
 * How long the keeper keeps a server without use, chosen in one place for the command and the
 * keeper. Free of imports but types: the command reads it on its warm path, and the keeper for
 * each connection.
 */

/**
 * `CAT_CODE_KEEP_ALIVE`: whole seconds a warm connection stays without use (`0`: none kept);
 * undefined when unset or not a whole number.
 */
export function keepAliveSetting(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/**
 * The keep-alive in seconds, by precedence: `--keep-alive`, then the entry's own `keepAlive`, then
 * CAT_CODE_KEEP_ALIVE of each environment in the order given (the command's, then the keeper's).
 * An ad-hoc server (`--stdio`, `--url`) that none of them names gets 0: a script that starts one
 * means it for this command, and a kept one would carry its state (and hold an HTTP server's
 * connections) into the next run. Undefined otherwise: the keeper's default.
 */
export function keepAliveSeconds(entry: ServerEntry, flag: number | undefined, envs: ReadonlyArray<Record<string, string | undefined>>): number | undefined {
  let chosen = flag ?? (entry.ok ? entry.config.keepAlive : undefined);
  for (const env of envs) chosen ??= keepAliveSetting(env.CAT_CODE_KEEP_ALIVE);
  return chosen ?? (entry.scope === "ad-hoc" ? 0 : undefined);
}
