import { join } from "node:path";
import { MACHINE_CLIENT, RESOURCE_SCOPES } from "../../fixtures/oidc/provider-config.ts";
import { spawnListening, type ListeningFixture } from "./listening-fixture.ts";
import { BUN, REPO } from "./paths.ts";

export { MACHINE_CLIENT, RESOURCE_SCOPES };

export const OIDC_SERVER = join(REPO, "fixtures", "oidc", "oidc-server.ts");

/**
 * A running fixtures/oidc/oidc-server.ts: a real OpenID provider (`oidc-provider`: dynamic
 * registration, PKCE, resource indicators with JWT access tokens, refresh tokens only for
 * `offline_access` granted with consent, rotated with reuse detection, revocation, RFC 9207 `iss`)
 * and an SDK v1 MCP server (tools `whoami` and `echo`) that takes only its JWTs, on separate ports.
 * Sign in through it with `browserEnv()` (test/helpers/browser.ts) as `$BROWSER`: the stand-in
 * fills in its development login and consent pages as a person would. MACHINE_CLIENT is a
 * confidential client for the client_credentials grant, allowed RESOURCE_SCOPES only.
 */
export type OidcProviderProcess = ListeningFixture;

/**
 * Starts the provider and its resource server. `accessTtlSeconds`: the access token lifetime (default
 * 20); `noRefresh`: it never issues a refresh token.
 */
export function spawnOidcProvider(options: { accessTtlSeconds?: number; noRefresh?: boolean } = {}): Promise<OidcProviderProcess> {
  const argv = [BUN, OIDC_SERVER, ...(options.accessTtlSeconds ? ["--access-ttl", String(options.accessTtlSeconds)] : []), ...(options.noRefresh ? ["--no-refresh"] : [])];
  return spawnListening(argv, "oidc-server");
}
