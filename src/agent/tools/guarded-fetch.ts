import { lookup } from "node:dns/promises";
import { hostLiteralAddress, isAddressHost, privateAddressReason } from "../../system/network-address.ts";

export const MAX_REDIRECTS = 5;
/** What one fetch may download; the rest is not read. */
export const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
const USER_AGENT = "cat-code web_fetch (+https://github.com/cat-code)";

export interface GuardedFetchOptions {
  /**
   * Whether the user's rules name this host exactly. Asked only for an address literal or
   * `localhost` (see isAddressHost): a rule for a name never opens private addresses.
   */
  privateHostAllowed: (host: string) => boolean;
  signal?: AbortSignal;
  /** Resolves a host name to its addresses; tests stand in for DNS. */
  resolve?: (host: string) => Promise<string[]>;
  maxBytes?: number;
  timeoutMs?: number;
}

export type FetchOutcome =
  | { kind: "ok"; url: string; status: number; contentType: string; body: Uint8Array; truncated: boolean }
  /** A redirect to another host: not followed, since the user allowed the first host, not this one. */
  | { kind: "redirect-elsewhere"; from: string; to: string; status: number }
  | { kind: "refused"; reason: string }
  | { kind: "failed"; reason: string };

/**
 * GET with the checks a model-chosen URL needs before it touches the network: http and https only;
 * the host resolved first and refused when any of its addresses is private, loopback, link-local or
 * unique-local (unless the host is an address or `localhost` and a rule names it), for every
 * redirect hop; plain http goes to the very address that was checked (the Host header names the
 * host), so DNS cannot answer differently the second time. Redirects are followed on the same host only, at most MAX_REDIRECTS; the body is read
 * up to a cap.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<FetchOutcome> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { kind: "refused", reason: `${JSON.stringify(url)} is not a URL; give an absolute http:// or https:// URL` };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  for (let hop = 0; ; hop++) {
    const checked = await checkTarget(current, options);
    if ("refused" in checked) return { kind: "refused", reason: checked.refused };
    let response: Response;
    try {
      response = await fetch(checked.requestUrl, {
        method: "GET",
        redirect: "manual",
        signal,
        headers: { Host: current.host, "User-Agent": USER_AGENT, Accept: "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5" },
      });
    } catch (error) {
      if (options.signal?.aborted) return { kind: "failed", reason: "cancelled by the user" };
      if (timeout.aborted) return { kind: "failed", reason: `no answer from ${current.host} within ${(options.timeoutMs ?? TIMEOUT_MS) / 1000} s` };
      return { kind: "failed", reason: `could not fetch ${current.href}: ${(error as Error).message}` };
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { kind: "failed", reason: `${current.host} redirected to ${JSON.stringify(location)}, which is not a URL` };
      }
      if (hop >= MAX_REDIRECTS) return { kind: "failed", reason: `more than ${MAX_REDIRECTS} redirects from ${url}` };
      if (!sameSite(current, next)) return { kind: "redirect-elsewhere", from: current.href, to: next.href, status: response.status };
      current = next;
      continue;
    }
    const { body, truncated } = await readCapped(response, options.maxBytes ?? MAX_DOWNLOAD_BYTES);
    return { kind: "ok", url: current.href, status: response.status, contentType: response.headers.get("content-type") ?? "", body, truncated };
  }
}

/** The URL to request, after the scheme and every address of the host were checked. */
async function checkTarget(url: URL, options: GuardedFetchOptions): Promise<{ requestUrl: string } | { refused: string }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return { refused: `${url.protocol} URLs are not fetched; only http:// and https://` };
  const host = url.hostname.toLowerCase();
  const literal = hostLiteralAddress(host);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : await (options.resolve ?? resolveHost)(host);
  } catch (error) {
    return { refused: `${host} could not be resolved: ${(error as Error).message}` };
  }
  if (addresses.length === 0) return { refused: `${host} has no address` };
  const refusal = privateRefusal(host, addresses, options);
  if (refusal) return { refused: refusal };
  // https stays on the name (the certificate is checked against it); plain http is pinned to the address checked.
  if (url.protocol === "https:" || literal) return { requestUrl: url.href };
  const pinned = new URL(url.href);
  const address = addresses[0] as string;
  pinned.hostname = address.includes(":") ? `[${address}]` : address;
  return { requestUrl: pinned.href };
}

/**
 * Why a host may not be reached, when one of its addresses is in the user's own network. A rule
 * opens that only for the address itself (or `localhost`), written by hand: a name's rule may have
 * come from one "always" for a public page, and DNS can point the name at 169.254.169.254 later.
 */
function privateRefusal(host: string, addresses: readonly string[], options: GuardedFetchOptions): string | undefined {
  const addressHost = isAddressHost(host);
  if (addressHost && options.privateHostAllowed(host)) return undefined;
  for (const address of addresses) {
    const reason = privateAddressReason(address);
    if (!reason) continue;
    if (addressHost) return `${host} is ${reason} (${address}); web_fetch reaches the user's own network only for an address the user's permission rules name, written by hand: WebFetch(domain:${host}) in permissions.allow`;
    const named = address.includes(":") ? `[${address}]` : address;
    return `${host} resolves to ${address}, ${reason}; web_fetch does not reach the user's own network through a name, even one a rule allows. To allow it, the user writes a rule naming the address, WebFetch(domain:${named}) in permissions.allow, and the URL uses that address`;
  }
  return undefined;
}

async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** The same host, `www.` or not; never from https down to http. */
function sameSite(from: URL, to: URL): boolean {
  if (from.protocol === "https:" && to.protocol !== "https:") return false;
  const bare = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, "");
  return bare(from) === bare(to) && (to.protocol === "http:" || to.protocol === "https:");
}

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks), truncated: false };
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      await reader.cancel();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
}
