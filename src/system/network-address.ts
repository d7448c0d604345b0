import { isIP } from "node:net";

/**
 * Whether an address is outside the public internet: loopback, private (RFC 1918), carrier-grade
 * NAT, link-local (cloud metadata at 169.254.169.254), unique-local IPv6, multicast, reserved and
 * unspecified ranges. IPv4 hidden in IPv6 (`::ffff:127.0.0.1`, NAT64 `64:ff9b::`, 6to4 `2002:`) is
 * judged as the IPv4 it carries. Returns why, or undefined for a public address; an address it
 * cannot read counts as private (refusing is the safe side).
 */
export function privateAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const version = isIP(bare);
  if (version === 4) return ipv4Reason(ipv4Bytes(bare) as number[]);
  if (version === 6) return ipv6Reason(ipv6Words(bare));
  return "not an address that could be checked";
}

/**
 * The IPv4 address a host name spells in one of the forms `inet_aton` (and so browsers and curl)
 * accept: `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`. Undefined when it is a name, not a number.
 * Such a host must be checked as the address it is, never resolved as a name.
 */
export function numericIpv4(host: string): string | undefined {
  const parts = host.replace(/\.$/, "").split(".");
  if (parts.length > 4 || parts.some((part) => !/^(0x[0-9a-f]*|\d+)$/i.test(part))) return undefined;
  const numbers = parts.map((part) => (/^0x/i.test(part) ? Number.parseInt(part.slice(2) || "0", 16) : /^0\d/.test(part) ? Number.parseInt(part, 8) : Number(part)));
  if (numbers.some((n) => !Number.isFinite(n) || Number.isNaN(n))) return "0.0.0.0";
  const last = numbers.pop() as number;
  const lastBytes = 4 - numbers.length;
  if (numbers.some((n) => n > 255) || last >= 2 ** (8 * lastBytes)) return "0.0.0.0";
  const bytes = [...numbers];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes.join(".");
}

/**
 * The address a URL's host is written as: `[::1]` and every numeric IPv4 spelling (see numericIpv4);
 * undefined for a name, which only DNS can turn into addresses.
 */
export function hostLiteralAddress(host: string): string | undefined {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : numericIpv4(host);
}

/**
 * Whether a host is one whose private addresses the user can allow by naming it in a rule: an
 * address literal, or `localhost`. A name's addresses are DNS's to change (a public name can resolve
 * to 127.0.0.1 tomorrow), so a rule for a name never opens the user's own network.
 */
export function isAddressHost(host: string): boolean {
  return host === "localhost" || hostLiteralAddress(host) !== undefined;
}

/** `localhost` or a private address literal: a host whose rule opens the user's own network. */
export function isOwnNetworkHost(host: string): boolean {
  if (!isAddressHost(host)) return false;
  const address = hostLiteralAddress(host);
  return address === undefined || privateAddressReason(address) !== undefined;
}

function ipv4Bytes(address: string): number[] {
  return address.split(".").map(Number);
}

function ipv4Reason([a = 0, b = 0, c = 0]: number[]): string | undefined {
  if (a === 127) return "a loopback address";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private address";
  if (a === 169 && b === 254) return "a link-local address (cloud metadata lives there)";
  if (a === 100 && b >= 64 && b <= 127) return "a carrier-grade NAT address";
  if (a === 0) return "an unspecified address";
  if (a === 192 && b === 0 && c === 0) return "a reserved address";
  if (a === 198 && (b === 18 || b === 19)) return "a benchmarking address";
  if (a >= 224) return "a multicast or reserved address";
  return undefined;
}

/** Eight 16-bit words; a trailing dotted IPv4 part becomes the last two. */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headWords = head ? head.split(":") : [];
  const tailWords = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - headWords.length - tailWords.length;
  return [...headWords, ...Array(missing).fill("0"), ...tailWords].map((word) => Number.parseInt(word, 16));
}

function ipv6Reason(words: number[]): string | undefined {
  const [w0 = 0, w1 = 0, , , , w5 = 0, w6 = 0, w7 = 0] = words;
  const embedded = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];
  if (words.every((w) => w === 0)) return "an unspecified address";
  if (words.slice(0, 7).every((w) => w === 0) && w7 === 1) return "a loopback address";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated): the IPv4 inside.
  if (words.slice(0, 5).every((w) => w === 0) && (w5 === 0xffff || w5 === 0)) return ipv4Reason(embedded(w6, w7)) ?? (w5 === 0 ? "an IPv4-compatible address" : undefined);
  if (w0 === 0x64 && w1 === 0xff9b) return ipv4Reason(embedded(w6, w7));
  if (w0 === 0x2002) return ipv4Reason(embedded(w1, words[2] ?? 0));
  if ((w0 & 0xfe00) === 0xfc00) return "a unique-local address";
  if ((w0 & 0xffc0) === 0xfe80) return "a link-local address";
  if ((w0 & 0xffc0) === 0xfec0) return "a site-local address";
  if ((w0 & 0xff00) === 0xff00) return "a multicast address";
  return undefined;
}
