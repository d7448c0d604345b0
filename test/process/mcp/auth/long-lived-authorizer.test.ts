import { describe, expect, test } from "bun:test";
import { AuthError } from "../../../../src/mcp/auth/auth-error.ts";
import { ServerAuthorizer } from "../../../../src/mcp/auth/server-authorizer.ts";
import type { OAuthServerProcess } from "../../../helpers/oauth-server-process.ts";
import { notesKey, oauthFixtures, refreshGrants, signInByRegistration, storeIn } from "./registered-sign-in.ts";

/**
 * One authorizer kept for hours, as the keeper keeps a warm connection: its clock is moved on by the
 * fixture's token lifetime (an hour) at a time, and every refresh goes to the real OAuth fixture.
 */

const fixture = oauthFixtures();
const HOUR = 3600_000;

async function warmAuthorizer(server: OAuthServerProcess) {
  const store = storeIn();
  await signInByRegistration(server, store);
  const clock = { offset: 0 };
  const authorizer = new ServerAuthorizer({ name: "notes", url: server.mcpUrl }, { store, now: () => Date.now() + clock.offset });
  return { store, clock, authorizer };
}

const discoveries = (server: OAuthServerProcess) => server.records().filter((r) => r.path.startsWith("/.well-known/")).length;

describe("an authorizer that lives for hours", () => {
  test("refreshes at every expiry, not only at the first", async () => {
    const server = await fixture(["--rotate-refresh"]);
    const { store, clock, authorizer } = await warmAuthorizer(server);
    for (let hour = 1; hour <= 3; hour++) {
      clock.offset = hour * 2 * HOUR;
      expect(await authorizer.authorization()).toBe(`Bearer ${store.tokens(notesKey(server))!.accessToken}`);
      expect(refreshGrants(server)).toHaveLength(hour);
    }
  });

  test("a token a refresh just brought that the server refuses is not refreshed again: NEEDS-AUTH, no loop", async () => {
    const server = await fixture(["--rotate-refresh", "--revocation"]);
    const { store, clock, authorizer } = await warmAuthorizer(server);
    clock.offset = 2 * HOUR;
    const sent = await authorizer.authorization();
    const renewed = store.tokens(notesKey(server))!;
    const body = new URLSearchParams({ token: renewed.accessToken, client_id: renewed.clientId! });
    await (await fetch(`${server.issuer}/revoke`, { method: "POST", body })).arrayBuffer();
    const error = await authorizer.refused(401, new Headers({ "WWW-Authenticate": "Bearer" }), sent).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).needsSignIn).toBe(true);
    expect(refreshGrants(server)).toHaveLength(1);
  });

  test("a token that came already expired (expires_in 0) is sent as it is, not refreshed before every request", async () => {
    const server = await fixture(["--rotate-refresh"]);
    const { store, clock, authorizer } = await warmAuthorizer(server);
    const held = store.tokens(notesKey(server))!;
    await store.saveTokens(notesKey(server), { ...held, expiresAt: held.savedAt });
    clock.offset = 2 * HOUR;
    expect(await authorizer.authorization()).toBe(`Bearer ${held.accessToken}`);
    expect(refreshGrants(server)).toEqual([]);
  });

  test("keeps only the last few access tokens it refreshed from or got, however many refreshes it makes", async () => {
    const server = await fixture(["--rotate-refresh"]);
    const { clock, authorizer } = await warmAuthorizer(server);
    for (let hour = 1; hour <= 20; hour++) {
      clock.offset = hour * 2 * HOUR;
      await authorizer.authorization();
    }
    expect(refreshGrants(server)).toHaveLength(20);
    // What it remembers is private; its size is the promise (each entry holds a token of up to 16 KB).
    expect(authorizer["remembered"].size).toBeLessThanOrEqual(4);
  });

  test("requests that meet an expiring token together share one refresh and one discovery", async () => {
    const server = await fixture(["--rotate-refresh"]);
    const { store, clock, authorizer } = await warmAuthorizer(server);
    const before = discoveries(server);
    clock.offset = 2 * HOUR;
    const headers = await Promise.all([authorizer.authorization(), authorizer.authorization(), authorizer.authorization()]);
    const renewed = `Bearer ${store.tokens(notesKey(server))!.accessToken}`;
    expect(headers).toEqual([renewed, renewed, renewed]);
    expect(refreshGrants(server)).toHaveLength(1);
    // One refresh's discovery: the protected resource's document and the authorization server's.
    expect(discoveries(server) - before).toBe(2);
  });
});
