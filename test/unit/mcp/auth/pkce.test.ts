import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { createPkce, randomState, s256Challenge } from "../../../../src/mcp/auth/pkce.ts";

const UNRESERVED = /^[A-Za-z0-9\-._~]+$/;

describe("PKCE (RFC 7636)", () => {
  test("the S256 challenge of the RFC's own example (appendix B)", () => {
    expect(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  test("a verifier of 43 to 128 unreserved characters, its S256 challenge, method S256", () => {
    const pkce = createPkce();
    expect(pkce.verifier.length).toBeGreaterThanOrEqual(43);
    expect(pkce.verifier.length).toBeLessThanOrEqual(128);
    expect(pkce.verifier).toMatch(UNRESERVED);
    expect(pkce.method).toBe("S256");
    expect(pkce.challenge).toBe(createHash("sha256").update(pkce.verifier).digest("base64url"));
    expect(pkce.challenge).not.toContain("=");
  });

  test("every sign-in gets a fresh verifier and state", () => {
    const verifiers = new Set(Array.from({ length: 50 }, () => createPkce().verifier));
    const states = new Set(Array.from({ length: 50 }, () => randomState()));
    expect(verifiers.size).toBe(50);
    expect(states.size).toBe(50);
    const state = randomState();
    expect(state).toMatch(UNRESERVED);
    expect(state.length).toBeGreaterThanOrEqual(43);
  });
});
