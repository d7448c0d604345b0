import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { ServerAccess, ServerAccessOptions } from "./server-access.ts";

/** The servers held by the connection keeper (not yet: every command runs cold). */
export async function openWarm(
  _entries: ServerEntry[],
  _options: Omit<ServerAccessOptions, "roots"> & { roots: string[] },
  _cold: () => Promise<ServerAccess>,
): Promise<ServerAccess | undefined> {
  return undefined;
}
