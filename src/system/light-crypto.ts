/**
 * A sha256 and random bytes without `node:crypto`, whose import alone costs the compiled binary about
 * 2 ms: a warm command would pay it before it reaches the keeper (Bun's hasher and the Web Crypto
 * global are there already).
 */
export function sha256Hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

/** `bytes` random bytes as hex, from the system's secure generator (tokens, temporary names). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/**
 * Whether a secret someone gave (a token in a header or a hello) is `expected`, in time that depends
 * only on the length: every byte is looked at, so how long it takes tells nothing of where it differs.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
