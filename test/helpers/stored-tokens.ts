import { existsSync, readFileSync } from "node:fs";
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
