/**
 * The discovery half of a sign-in, run by the conformance suite's `client` command against one of its
 * auth scenarios: `bun discovery-probe.ts <out.json> <server-url>`. It asks the server (401 expected),
 * reads the Bearer challenge, finds the protected resource metadata and the authorization server's
 * metadata, and writes what it found, or the AuthError's message, to <out.json>. It signs in no
 * further: the test judges the paths the suite's servers saw, from the suite's checks.json.
 */
import { discoverAuthorizationServer } from "../../../../src/mcp/auth/authorization-server-metadata.ts";
import { discoverProtectedResource } from "../../../../src/mcp/auth/protected-resource-metadata.ts";
import { bearerChallenge } from "../../../../src/mcp/auth/www-authenticate.ts";

const [out, serverUrl] = process.argv.slice(2) as [string, string];
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "discovery-probe", version: "1" } } };
let result: object;
try {
  const response = await fetch(serverUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(initialize),
  });
  await response.body?.cancel();
  const challenge = bearerChallenge(response.headers);
  const resource = await discoverProtectedResource(serverUrl, challenge);
  // 2025-03-26: no resource metadata, so the authorization server is the MCP server's origin.
  const issuer = resource?.authorizationServers[0] ?? new URL(serverUrl).origin;
  const server = await discoverAuthorizationServer(issuer, { legacyFallback: resource === undefined });
  result = { status: response.status, challenge, resource, server };
} catch (error) {
  result = { error: (error as Error).message };
}
await Bun.write(out, JSON.stringify(result, null, 2));
