import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { chooseScopes, ScopesSupported } from "../../../../src/mcp/auth/scope-selection.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";

describe("chooseScopes: the spec's scope selection strategy", () => {
  test("the challenge's scope comes first, over the resource's scopes_supported (auth/scope-from-www-authenticate)", () => {
    expect(chooseScopes({ challenge: ["mcp:basic"], resourceScopes: ["mcp:profile", "mcp:basic", "mcp:admin"] })).toEqual(["mcp:basic"]);
  });

  test("without a challenge scope, every scope of the resource's scopes_supported (auth/scope-from-scopes-supported)", () => {
    expect(chooseScopes({ resourceScopes: ["mcp:basic", "mcp:read", "mcp:write"] })).toEqual(["mcp:basic", "mcp:read", "mcp:write"]);
  });

  test("no scope anywhere: no scope parameter at all (auth/scope-omitted-when-undefined)", () => {
    expect(chooseScopes({})).toBeUndefined();
    expect(chooseScopes({ challenge: [], configured: [], resourceScopes: [], previous: [] })).toBeUndefined();
  });

  test("configured scopes replace scopes_supported and are added after a challenge's", () => {
    expect(chooseScopes({ configured: ["repo"], resourceScopes: ["a", "b"] })).toEqual(["repo"]);
    expect(chooseScopes({ challenge: ["a"], configured: ["repo", "a"], resourceScopes: ["b"] })).toEqual(["a", "repo"]);
  });

  test("step-up asks for the union of the earlier scopes and the challenged ones (auth/scope-step-up, SEP-2350)", () => {
    expect(chooseScopes({ challenge: ["mcp:write"], previous: ["mcp:basic"], resourceScopes: ["mcp:profile"] })).toEqual(["mcp:write", "mcp:basic"]);
    expect(chooseScopes({ previous: ["mcp:basic"] })).toEqual(["mcp:basic"]);
  });

  test("offline_access is added when the authorization server lists it (auth/offline-access-scope)", () => {
    expect(chooseScopes({ resourceScopes: ["mcp:basic"], serverScopes: ["mcp:basic", "offline_access"] })).toEqual(["mcp:basic", "offline_access"]);
    expect(chooseScopes({ challenge: ["offline_access", "a"], serverScopes: ["offline_access"] })).toEqual(["offline_access", "a"]);
  });

  test("offline_access is never asked for when the authorization server does not list it (auth/offline-access-not-supported)", () => {
    expect(chooseScopes({ resourceScopes: ["mcp:basic", "mcp:read"], serverScopes: ["mcp:basic", "mcp:read"] })).toEqual(["mcp:basic", "mcp:read"]);
    expect(chooseScopes({ challenge: ["a", "offline_access"], configured: ["offline_access"], previous: ["offline_access"] })).toEqual(["a"]);
    expect(chooseScopes({ challenge: ["offline_access"] })).toBeUndefined();
  });

  test("a machine grant (client_credentials) never asks for offline_access, however it is named", () => {
    const input = { resourceScopes: ["mcp:read"], configured: ["mcp:read", "offline_access"], serverScopes: ["mcp:read", "offline_access"] };
    expect(chooseScopes({ ...input, machine: true })).toEqual(["mcp:read"]);
    expect(chooseScopes({ ...input, machine: false })).toEqual(["mcp:read", "offline_access"]);
  });

  test("offline_access alone never replaces the server's default grant", () => {
    expect(chooseScopes({ serverScopes: ["openid", "offline_access"] })).toBeUndefined();
  });

  test("order kept, duplicates dropped, a configured 'a b' counts as two scopes", () => {
    expect(chooseScopes({ challenge: ["b", "a", "b"], configured: ["a c", " d  "], previous: ["c", "e"] })).toEqual(["b", "a", "c", "d", "e"]);
  });
});

describe("ScopesSupported: a metadata document's scopes_supported", () => {
  test("keeps valid scope tokens and drops, with a debug line, those that could not be sent", async () => {
    let output: unknown;
    const lines = await debugLines(() => {
      output = v.parse(ScopesSupported, ["a:b", "has space", 'quo"te', "back\\slash", "", "ünï", "ok"]);
    });
    expect(output).toEqual(["a:b", "ok"]);
    expect(lines).toEqual(["ignored 5 scope(s) of scopes_supported that are not valid scope tokens"]);
  });

  test("absent, null and empty all read as absent; anything but a list of strings is invalid", () => {
    expect(v.parse(ScopesSupported, undefined)).toBeUndefined();
    expect(v.parse(ScopesSupported, null)).toBeUndefined();
    expect(v.parse(ScopesSupported, [])).toBeUndefined();
    expect(v.safeParse(ScopesSupported, "a b").success).toBe(false);
    expect(v.safeParse(ScopesSupported, ["a", 1]).success).toBe(false);
  });
});
