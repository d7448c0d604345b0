import { describe, expect, test } from "bun:test";
import { noRefreshTokenNote } from "../../../src/terminal/browser-sign-in.ts";
import { clockTime } from "../../../src/terminal/clock-time.ts";
import { signOutLine } from "../../../src/terminal/sign-out-line.ts";

const AS = "https://as.example.com";
/** A minute from now, so that it is today: shown as HH:MM on the user's own clock. */
const AT = Date.now() + 60_000;
const local = clockTime(AT);
const none = { forgotten: 1, revokedAt: [], noRevocationAt: [], failedAt: [], expiringAt: [] };

describe("what a sign-out says", () => {
  test("every token revoked", () => {
    expect(signOutLine("idp", { ...none, revokedAt: [AS] })).toBe(`signed out of idp (tokens revoked at ${AS})`);
  });

  test("the refresh token revoked, the JWT access token not: what was revoked, and when the rest expires", () => {
    expect(signOutLine("idp", { ...none, expiringAt: [{ issuer: AS, refreshRevoked: true, expiresAt: AT }] })).toBe(
      `signed out of idp (refresh token revoked at ${AS}; the access token could not be revoked there and expires at ${local}; it was forgotten here)`,
    );
  });

  test("no refresh token, an access token not revoked: it simply expires", () => {
    expect(signOutLine("idp", { ...none, expiringAt: [{ issuer: AS, refreshRevoked: false }] })).toBe(
      `signed out of idp (the access token could not be revoked at ${AS} and expires on its own; it was forgotten here)`,
    );
  });

  test("a refresh token not revoked is a failure", () => {
    expect(signOutLine("idp", { ...none, failedAt: [AS] })).toBe(`signed out of idp (revoking them at ${AS} failed; the tokens were forgotten here)`);
  });
});

describe("a sign-in without a refresh token", () => {
  test("says when the person will sign in again, in local time", () => {
    expect(noRefreshTokenNote(AT)).toBe(`this server gives no refresh token: you will be asked to sign in again when the token expires at ${local}`);
    expect(noRefreshTokenNote(undefined)).toBe("this server gives no refresh token: you will be asked to sign in again when the token expires");
  });
});

describe("a token's expiry as the user's clock shows it", () => {
  test("today: HH:MM; another day: the date too", () => {
    const noon = new Date(2026, 11, 2, 12, 0).getTime();
    expect(clockTime(new Date(2026, 11, 2, 14, 5).getTime(), noon)).toBe("14:05");
    expect(clockTime(new Date(2026, 11, 9, 8, 30).getTime(), noon)).toBe("2026-12-09 08:30");
  });
});
