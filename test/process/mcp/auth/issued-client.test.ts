import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { AuthError } from "../../../../src/mcp/auth/auth-error.ts";
import { DEFAULT_CLIENT_METADATA_URL } from "../../../../src/mcp/auth/client-registration.ts";
import { ServerAuthorizer } from "../../../../src/mcp/auth/server-authorizer.ts";
import { signOut } from "../../../../src/mcp/auth/sign-out.ts";
import { notesKey, oauthFixtures, refreshGrants, signInByRegistration, storeIn, takesToken } from "./registered-sign-in.ts";

/**
 * Tokens go back to the authorization server through the client they were issued to: a refresh and
 * a revocation name that client, whatever a new sign-in would choose today. The case that matters:
 * a sign-in made by dynamic registration, at an authorization server that offers Client ID Metadata
 * Documents since (a new sign-in there would use cat-code's metadata URL as its client id).
 */

const fixture = oauthFixtures();
/** The authorizer's clock says the fixture's hour-long token has expired: it refreshes before sending it. */
const later = () => Date.now() + 2 * 3600_000;

describe("the client the tokens were issued to", () => {
  test("a refresh at an authorization server that now offers CIMD names the registered client, not the metadata URL", async () => {
    const server = await fixture(["--cimd", "--rotate-refresh"]);
    const store = storeIn();
    const issued = await signInByRegistration(server, store);
    const authorizer = new ServerAuthorizer({ name: "notes", url: server.mcpUrl }, { store, now: later });
    const header = await authorizer.authorization();
    expect(refreshGrants(server).map((form) => form.client_id)).toEqual([issued.clientId]);
    expect(refreshGrants(server)[0]?.client_id).not.toBe(DEFAULT_CLIENT_METADATA_URL);
    const renewed = store.tokens(notesKey(server))!;
    expect(renewed.accessToken).not.toBe(issued.accessToken);
    expect(renewed.clientId).toBe(issued.clientId);
    expect(header).toBe(`Bearer ${renewed.accessToken}`);
    expect(await takesToken(server, renewed.accessToken)).toBe(true);
  });

  test("logout revokes them through the registered client at an authorization server that now offers CIMD", async () => {
    const server = await fixture(["--cimd", "--revocation"]);
    const store = storeIn();
    const issued = await signInByRegistration(server, store);
    const result = await signOut({ name: "notes", url: server.mcpUrl }, store);
    expect(result).toMatchObject({ forgotten: 1, revokedAt: [server.issuer], failedAt: [] });
    const revocations = server.records().filter((r) => r.path === "/revoke");
    expect(revocations.map((r) => r.form?.client_id)).toEqual([issued.clientId, issued.clientId]);
    // The fixture answers 200 to a revocation from another client too, and revokes nothing: only this shows it was done.
    expect(await takesToken(server, issued.accessToken)).toBe(false);
  });

  test("tokens whose client cat-code no longer knows are not refreshed with another one, and the NEEDS-AUTH says why", async () => {
    const server = await fixture(["--cimd"]);
    const store = storeIn();
    const issued = await signInByRegistration(server, store);
    // As an older cat-code leaves the file: one registration per issuer, the last one written.
    const document = JSON.parse(readFileSync(store.path, "utf8"));
    document.registrations[server.issuer] = { clientId: "someone-else", authMethod: "none", redirectUris: ["http://127.0.0.1:9/callback"], issuer: server.issuer };
    writeFileSync(store.path, JSON.stringify(document), { mode: 0o600 });
    const authorizer = new ServerAuthorizer({ name: "notes", url: server.mcpUrl }, { store, now: later });
    const sent = await authorizer.authorization();
    expect(sent).toBe(`Bearer ${issued.accessToken}`);
    const error = await authorizer.refused(401, new Headers({ "WWW-Authenticate": "Bearer" }), sent).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refreshGrants(server)).toEqual([]);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).needsSignIn).toBe(true);
    expect((error as AuthError).message).toBe(
      `'notes' (${server.mcpUrl}) needs you to sign in again (cat-code no longer has the client its tokens were issued to: no registration in ${store.path} nor the entry's oauth settings name it): run cat-code mcp login notes`,
    );
  });
});
