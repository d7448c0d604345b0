import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredTokens } from "../../src/mcp/auth/credentials-store.ts";

/**
 * The tokens `<home>/credentials.json` holds for the entry `server` at `url`, read from the file as a
 * later cat-code would find it (not through the store, which would tidy what it reads); undefined
 * while there is no file or no tokens.
 */
export function storedTokens(home: string, server: string, url: string): StoredTokens | undefined {
  const path = join(home, "credentials.json");
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")).servers?.[server]?.tokens?.[url];
}

/**
 * Time passes without a sleep: the stored access tokens of these entries are made to have expired a
 * minute ago, so the next command refreshes them (with the fixture's expireAccessTokens, the
 * server agrees they have).
 */
export function expireStoredTokens(home: string, servers: ReadonlyArray<{ server: string; url: string }>): void {
  const path = join(home, "credentials.json");
  const document = JSON.parse(readFileSync(path, "utf8"));
  for (const { server, url } of servers) {
    const tokens = document.servers[server].tokens[url];
    tokens.expiresAt = Date.now() - 60_000;
    tokens.savedAt = tokens.expiresAt - 20_000;
  }
  writeFileSync(path, JSON.stringify(document), { mode: 0o600 });
}
