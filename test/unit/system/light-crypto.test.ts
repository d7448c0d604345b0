import { createHash } from "node:crypto";
import { expect, test } from "bun:test";
import { randomHex, sameSecret, sha256Hex } from "../../../src/system/light-crypto.ts";

test("sha256Hex is node:crypto's sha256, for text and bytes", () => {
  expect(sha256Hex("abc")).toBe(createHash("sha256").update("abc").digest("hex"));
  expect(sha256Hex(new Uint8Array([1, 2, 3]))).toBe(createHash("sha256").update(new Uint8Array([1, 2, 3])).digest("hex"));
});

test("randomHex gives that many random bytes as hex, a new value each time", () => {
  expect(randomHex(32)).toMatch(/^[0-9a-f]{64}$/);
  expect(randomHex(8)).not.toBe(randomHex(8));
});

test("sameSecret: equal only when every byte is; another length, a last byte, a first byte or a multi-byte character differ", () => {
  const token = "ab".repeat(32);
  expect(sameSecret(token, token)).toBe(true);
  expect(sameSecret(token.slice(0, -1), token)).toBe(false);
  expect(sameSecret(`${token}a`, token)).toBe(false);
  expect(sameSecret(`${token.slice(0, -1)}c`, token)).toBe(false);
  expect(sameSecret(`c${token.slice(1)}`, token)).toBe(false);
  expect(sameSecret("é", "ex")).toBe(false);
  expect(sameSecret("", "")).toBe(true);
});
