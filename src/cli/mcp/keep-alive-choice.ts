import { keepAliveSetting } from "../../keeper/keep-alive-setting.ts";
import { MAX_TIMEOUT_MS, type ServerEntry } from "../../mcp/config/server-config.ts";
import { CliError } from "../../terminal/cli-error.ts";

/** The longest keep-alive a timer can hold, as the entry's `keepAlive` allows it. */
const MAX_KEEP_ALIVE_SECONDS = Math.floor(MAX_TIMEOUT_MS / 1000);

/** `--keep-alive <s>` on `mcp call | tools | list`: how long the keeper keeps this command's servers without use. */
export const keepAliveArg = {
  "keep-alive": {
    type: "string",
    description: "Keep the servers warm in the connection keeper this many seconds without use (0: not at all). Ad-hoc --stdio/--url servers are not kept unless given",
    valueHint: "seconds",
  },
} as const;

/** `--keep-alive`: whole seconds, 0 included; a usage error naming the value otherwise. */
export function parseKeepAlive(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = keepAliveSetting(text);
  if (seconds === undefined) throw CliError.usage(`--keep-alive must be a whole number of seconds (0: not kept), got '${text}'`);
  if (seconds > MAX_KEEP_ALIVE_SECONDS) throw CliError.usage(`--keep-alive must be at most ${MAX_KEEP_ALIVE_SECONDS} seconds (about 24 days), got '${text}'`);
  return seconds;
}

/**
 * The entry as the keeper gets it: with the keep-alive the command chose written in, since the
 * keeper cannot see the command's flag, nor its environment for an HTTP server. It does not tell
 * connections apart (connectionFingerprint leaves it out): the connection it reuses takes it.
 */
export function withKeepAlive(entry: ServerEntry, seconds: number | undefined): ServerEntry {
  if (!entry.ok || seconds === undefined || entry.config.keepAlive === seconds) return entry;
  return { ...entry, config: { ...entry.config, keepAlive: seconds } };
}
