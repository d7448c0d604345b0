import { KeeperClient } from "./keeper-client.ts";
import { readKeeperInfo } from "./keeper-info.ts";
import { isKeeperOf } from "./keeper-process.ts";
import type { KeeperPaths } from "./keeper-paths.ts";
import { KEEPER_PROTOCOL } from "./keeper-protocol.ts";

/**
 * The short exchange of the keeper's own subcommands (`mcp keeper status`, `stop`) on one KeeperClient:
 * hello with the token from `keeper.json`, then `exchange`'s requests. Undefined when no keeper answers
 * (none running, a stale socket, gone before it answered); throws with the keeper's message when it
 * refuses, and names its pid when it says nothing within `timeoutMs`.
 */
export async function askKeeper<T>(paths: KeeperPaths, version: string, exchange: (client: KeeperClient) => Promise<T>, timeoutMs = 2000): Promise<T | undefined> {
  const info = readKeeperInfo(paths.info);
  if (!info) return undefined;
  // Offer `kill` only for a pid that is this home's keeper: keeper.json may name anyone's process.
  const hung = () =>
    new Error(
      isKeeperOf(info.pid, paths)
        ? `the keeper (pid ${info.pid}) did not answer within ${timeoutMs} ms; if it hangs, end it with: kill ${info.pid}`
        : `${paths.socket} did not answer within ${timeoutMs} ms, and pid ${info.pid} in ${paths.info} is not this home's keeper (do not kill it); remove both files: rm ${paths.socket} ${paths.info}`,
    );
  let client: KeeperClient | undefined;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(hung());
    }, timeoutMs);
  });
  const talk = async (): Promise<T | undefined> => {
    try {
      client = await KeeperClient.open(paths.socket, { timeoutMs });
    } catch (error) {
      // A socket error (ENOENT, ECONNREFUSED...): no keeper; without a code, nothing accepted in time.
      if ((error as NodeJS.ErrnoException).code !== undefined) return undefined;
      throw hung();
    }
    if (timedOut) {
      client.close();
      return undefined;
    }
    try {
      await client.request({ op: "hello", protocol: KEEPER_PROTOCOL, version, token: info.token });
      return await exchange(client);
    } catch (error) {
      // The socket closed or failed before the answer (a keeper exiting): as if none ran.
      if (client.closed && /closed the connection|socket failed/.test((error as Error).message)) return undefined;
      throw error;
    }
  };
  try {
    return await Promise.race([talk(), timeout]);
  } finally {
    clearTimeout(timer);
    client?.close();
  }
}
