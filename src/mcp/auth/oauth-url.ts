/**
 * Which URLs an OAuth step may talk to. MCP authorization 2025-11-25 ("Communication Security") and
 * OAuth 2.1 §1.5 require HTTPS for every authorization server endpoint; RFC 8252 §8.3 lets a native
 * client use plain http only on the loopback interface. cat-code takes the same line: https always,
 * http only for a loopback host, where the traffic never leaves the machine (a local development
 * server, the tests). A plain-http authorization server on a network would let anyone on the path
 * read the codes and tokens, or swap the metadata for a phishing page, so it is refused.
 */

/** `localhost` (and `*.localhost`, RFC 6761 §6.3), 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * `text` as a URL an OAuth request may go to, or the reason it may not: absolute, https: (http: on a
 * loopback host), no userinfo (it would be a credential in a URL from a server) and no fragment
 * (RFC 8414 §2, RFC 9728 §2).
 */
export function checkOAuthUrl(text: string): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: "is not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { problem: `uses ${url.protocol.slice(0, -1)}:, not https:` };
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return { problem: "uses plain http: on a host that is not this machine; OAuth needs https: there" };
  }
  if (url.username || url.password) return { problem: "carries a user name or password" };
  if (url.hash) return { problem: "has a fragment" };
  return { url };
}
