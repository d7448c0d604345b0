import { createHash, randomBytes } from "node:crypto";

/**
 * PKCE (RFC 7636) for one authorization request: a fresh verifier the token request proves, and its
 * S256 challenge the authorization request carries. 32 random bytes give a 43-character verifier,
 * the shortest the RFC allows and 256 bits of entropy; `plain` is never used.
 */
export function createPkce(): { verifier: string; challenge: string; method: "S256" } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: s256Challenge(verifier), method: "S256" };
}

/** BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2. */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** The `state` of one authorization request: unguessable, so a forged redirect cannot carry it. */
export function randomState(): string {
  return randomBytes(32).toString("base64url");
}
