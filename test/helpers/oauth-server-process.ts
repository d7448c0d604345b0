import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../../fixtures/oauth/request-record.ts";
import { spawnListening } from "./listening-fixture.ts";
import { BUN, REPO, tempDir } from "./paths.ts";

export type { RecordedRequest };

export const OAUTH_SERVER = join(REPO, "fixtures", "oauth", "oauth-server.ts");

/** A running fixtures/oauth/oauth-server.ts: an authorization server and the MCP server it protects. */
export interface OAuthServerProcess {
  /** The protected MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  mcpUrl: string;
  /** The authorization server's issuer (the same origin). */
  issuer: string;
  /** With --move-issuer: the second authorization server's issuer, which the server moves to. */
  movesTo?: string;
  /** Every request the fixture answered so far, in order. */
  records(): RecordedRequest[];
  /** Every access token it issued so far expires now (their lifetime passes without a wait); resolves once they have. */
  expireAccessTokens(): Promise<void>;
  /** Ends the fixture (SIGTERM, then SIGKILL if it lingers) and waits for it; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the OAuth fixture with `flags` (see fixtures/oauth/oauth-flags.ts) and waits for its
 * `LISTENING <mcp-url> <issuer>` line (see spawnListening).
 */
export async function spawnOAuthServer(flags: readonly string[] = []): Promise<OAuthServerProcess> {
  const recordFile = join(tempDir("cat-code-oauth-"), "requests.jsonl");
  const argv = [BUN, OAUTH_SERVER, "--port", "0", "--record", recordFile, ...flags];
  const { mcpUrl, issuer, output, stop } = await spawnListening(argv, `oauth-server ${flags.join(" ")}`);
  // Printed before LISTENING, so it is in the output by now.
  const movesTo = /^MOVES-TO (\S+)$/m.exec(output())?.[1];
  const records = () =>
    existsSync(recordFile)
      ? readFileSync(recordFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as RecordedRequest)
      : [];
  const expireAccessTokens = async () => {
    const answer = await fetch(`${issuer}/test/expire-access-tokens`, { method: "POST" });
    if (answer.status !== 204) throw new Error(`the OAuth fixture did not expire its tokens: ${answer.status}`);
  };
  return { mcpUrl, issuer, ...(movesTo ? { movesTo } : {}), records, expireAccessTokens, stop };
}
