import { describe, expect, test } from "bun:test";
import { MAX_AUTH_BODY_BYTES } from "../../../../src/mcp/auth/auth-fetch.ts";
import { discoverProtectedResource, resourceCovers } from "../../../../src/mcp/auth/protected-resource-metadata.ts";
import { silence } from "../../../../fixtures/http/scripted-server.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { documentServers } from "./document-server.ts";
import { authFailure } from "../../../helpers/oauth-endpoint.ts";

const { documents, asked } = documentServers();

const PATH_AWARE = "/.well-known/oauth-protected-resource/mcp";
const ROOT = "/.well-known/oauth-protected-resource";
const AS = "https://auth.example.com/tenant1";

describe("where the metadata is looked for, in order", () => {
  test("without resource_metadata in the challenge, the path-aware URL first, and the root never once it is found (auth/metadata-default, var1)", async () => {
    const server = documents((origin) => ({ [PATH_AWARE]: { resource: `${origin}/mcp`, authorization_servers: [AS] }, [ROOT]: { resource: origin, authorization_servers: ["https://other.example"] } }));
    const metadata = await discoverProtectedResource(server.url, undefined);
    expect(metadata).toEqual({ resource: `${server.origin}/mcp`, authorizationServers: [AS], url: `${server.origin}${PATH_AWARE}` });
    expect(asked(server)).toEqual([PATH_AWARE]);
  });

  test("the root URL after a 404 on the path-aware one; a pathless resource is kept exactly, without a slash added (auth/metadata-var2)", async () => {
    const server = documents((origin) => ({ [ROOT]: { resource: origin, authorization_servers: [AS] } }));
    const metadata = await discoverProtectedResource(server.url, {});
    expect(metadata?.resource).toBe(server.origin);
    expect(metadata?.resource.endsWith("/")).toBe(false);
    expect(metadata?.url).toBe(`${server.origin}${ROOT}`);
    expect(asked(server)).toEqual([PATH_AWARE, ROOT]);
  });

  test("the challenge's resource_metadata URL first, wherever it points on the server (auth/metadata-var3)", async () => {
    const server = documents((origin) => ({ "/custom/metadata/location.json": { resource: `${origin}/mcp`, authorization_servers: [AS] } }));
    const metadata = await discoverProtectedResource(server.url, { resourceMetadata: `${server.origin}/custom/metadata/location.json` });
    expect(metadata?.url).toBe(`${server.origin}/custom/metadata/location.json`);
    expect(asked(server)).toEqual(["/custom/metadata/location.json"]);
  });

  test("a challenge URL that is not found falls back to the well-known URLs; a URL asked twice is asked once", async () => {
    const server = documents((origin) => ({ [ROOT]: { resource: origin, authorization_servers: [AS] } }));
    await discoverProtectedResource(server.url, { resourceMetadata: `${server.origin}/gone` });
    expect(asked(server)).toEqual(["/gone", PATH_AWARE, ROOT]);
    server.requests.length = 0;
    await discoverProtectedResource(server.url, { resourceMetadata: `${server.origin}${PATH_AWARE}` });
    expect(asked(server)).toEqual([PATH_AWARE, ROOT]);
  });

  test("the path-aware URL drops a final slash and keeps the query (RFC 9728 §3.1); a server at the root has only the root URL", async () => {
    const server = documents(() => ({}));
    await discoverProtectedResource(`${server.origin}/v1/mcp/?tenant=7`, undefined);
    expect(asked(server)).toEqual([`${ROOT}/v1/mcp?tenant=7`, ROOT]);
    server.requests.length = 0;
    await discoverProtectedResource(`${server.origin}/`, undefined);
    expect(asked(server)).toEqual([ROOT]);
  });
});

describe("nothing found means the 2025-03-26 fallback", () => {
  test("404, 410, any other 4xx and a redirect (never followed) on every URL: undefined", async () => {
    for (const status of [404, 410, 401, 403, 405]) {
      const server = documents(() => ({ [PATH_AWARE]: () => new Response("no", { status }) }));
      expect(await discoverProtectedResource(server.url, undefined)).toBeUndefined();
      expect(asked(server)).toEqual([PATH_AWARE, ROOT]);
    }
    const redirecting = documents((origin) => ({ [PATH_AWARE]: () => Response.redirect(`${origin}/elsewhere`, 302), "/elsewhere": { resource: `${origin}/mcp`, authorization_servers: [AS] } }));
    expect(await discoverProtectedResource(redirecting.url, undefined)).toBeUndefined();
    expect(asked(redirecting)).toEqual([PATH_AWARE, ROOT]);
  });

  test("a document that is not JSON (an HTML page for every path) is skipped with a debug line and the next URL tried", async () => {
    const server = documents((origin) => ({
      [PATH_AWARE]: () => new Response("<html>app</html>", { headers: { "Content-Type": "text/html" } }),
      [ROOT]: { resource: origin, authorization_servers: [AS] },
    }));
    let metadata: unknown;
    const lines = await debugLines(async () => {
      metadata = await discoverProtectedResource(server.url, undefined);
    });
    expect(metadata).toMatchObject({ url: `${server.origin}${ROOT}` });
    expect(lines).toContain(`${server.origin}${PATH_AWARE} answered HTTP 200 without a JSON object; not protected resource metadata`);
  });

  test("JSON that is not an object is no document either", async () => {
    const server = documents(() => ({ [PATH_AWARE]: () => Response.json(["x"]), [ROOT]: () => Response.json("text") }));
    expect(await discoverProtectedResource(server.url, undefined)).toBeUndefined();
  });
});

describe("refusals", () => {
  test("a 5xx is an AuthError naming the URL and the status, and nothing after it is asked", async () => {
    const server = documents(() => ({ [PATH_AWARE]: () => new Response("boom", { status: 503 }) }));
    const error = await authFailure(discoverProtectedResource(server.url, undefined));
    expect(error.message).toBe(`protected resource metadata at ${server.origin}${PATH_AWARE} failed with HTTP 503: the server has a problem; try again later or tell its operator`);
    expect(asked(server)).toEqual([PATH_AWARE]);
  });

  test("a resource that is not the server's is refused, naming both URLs (auth/resource-mismatch)", async () => {
    const server = documents(() => ({ [PATH_AWARE]: { resource: "https://evil.example.com/mcp", authorization_servers: [AS] } }));
    const error = await authFailure(discoverProtectedResource(server.url, undefined));
    expect(error.message).toBe(
      `the protected resource metadata at ${server.origin}${PATH_AWARE} is for https://evil.example.com/mcp, not for ${server.url}: cat-code refuses to send a token to a server the metadata is not for (check the server URL, or tell its operator)`,
    );
    expect(error.needsSignIn).toBe(false);
  });

  test("a resource on the same origin but another path is refused too", async () => {
    const server = documents((origin) => ({ [PATH_AWARE]: { resource: `${origin}/other`, authorization_servers: [AS] } }));
    expect((await authFailure(discoverProtectedResource(server.url, undefined))).message).toContain(`is for ${server.origin}/other, not for ${server.url}`);
  });

  test("an invalid document is an AuthError that says what is wrong; unknown fields are ignored", async () => {
    const cases: [object, string][] = [
      [{ authorization_servers: [AS] }, '"resource" is missing'],
      [{ resource: 7, authorization_servers: [AS] }, '"resource" must be a string'],
      [{ resource: "", authorization_servers: [AS] }, '"resource" is empty'],
      [{ resource: "R" }, '"authorization_servers" is missing'],
      [{ resource: "R", authorization_servers: AS }, '"authorization_servers" must be a list of URLs'],
      [{ resource: "R", authorization_servers: [] }, '"authorization_servers" is empty'],
      [{ resource: "R", authorization_servers: [7] }, 'every item of "authorization_servers" must be a string'],
      [{ resource: "R", authorization_servers: [AS], scopes_supported: "a b" }, '"scopes_supported" must be a list of strings'],
    ];
    for (const [document, problem] of cases) {
      const server = documents((origin) => ({ [PATH_AWARE]: JSON.parse(JSON.stringify(document).replace('"R"', JSON.stringify(`${origin}/mcp`))) }));
      const error = await authFailure(discoverProtectedResource(server.url, undefined));
      expect(error.message).toBe(`the protected resource metadata at ${server.origin}${PATH_AWARE} is invalid: ${problem}; the server publishes broken metadata (tell its operator)`);
    }
    const server = documents((origin) => ({ [PATH_AWARE]: { resource: `${origin}/mcp`, authorization_servers: [AS], scopes_supported: ["a"], bearer_methods_supported: ["header"], x: { y: 1 } } }));
    expect(await discoverProtectedResource(server.url, undefined)).toEqual({ resource: `${server.origin}/mcp`, authorizationServers: [AS], scopesSupported: ["a"], url: `${server.origin}${PATH_AWARE}` });
  });

  test("authorization servers must be https: (http: only on this machine); unusable ones are skipped with a debug line", async () => {
    const server = documents((origin) => ({
      [PATH_AWARE]: { resource: `${origin}/mcp`, authorization_servers: ["http://auth.example.com", "ftp://x", "not a url", "http://localhost:9/as", "https://u:p@auth.example.com", AS] },
    }));
    let metadata: unknown;
    const lines = await debugLines(async () => {
      metadata = await discoverProtectedResource(server.url, undefined);
    });
    expect(metadata).toMatchObject({ authorizationServers: ["http://localhost:9/as", AS] });
    expect(lines).toContain(`skipped an authorization server of ${server.origin}${PATH_AWARE}: http://auth.example.com/ uses plain http: on a host that is not this machine; OAuth needs https: there`);
    expect(lines).toHaveLength(4);
  });

  test("a document naming no usable authorization server is refused with the reason", async () => {
    const server = documents((origin) => ({ [PATH_AWARE]: { resource: `${origin}/mcp`, authorization_servers: ["http://auth.example.com/"] } }));
    expect((await authFailure(discoverProtectedResource(server.url, undefined))).message).toBe(
      `the protected resource metadata at ${server.origin}${PATH_AWARE} names no usable authorization server: http://auth.example.com/ uses plain http: on a host that is not this machine; OAuth needs https: there`,
    );
  });

  test("a challenge pointing to plain http elsewhere, or to no URL, is refused before any request", async () => {
    const server = documents(() => ({}));
    for (const [pointer, problem] of [
      ["http://metadata.example.com/prm", "uses plain http: on a host that is not this machine; OAuth needs https: there"],
      ["/relative/prm", "is not an absolute URL"],
    ]) {
      const error = await authFailure(discoverProtectedResource(server.url, { resourceMetadata: pointer }));
      expect(error.message).toBe(`the server ${server.url} points to its protected resource metadata at ${pointer === "/relative/prm" ? "***" : pointer}, which ${problem}; cat-code does not fetch it (tell the server's operator)`);
    }
    expect(asked(server)).toEqual([]);
  });

  test("a document over the size limit is an AuthError, not read whole", async () => {
    const server = documents((origin) => ({ [PATH_AWARE]: { resource: `${origin}/mcp`, authorization_servers: [AS], padding: "x".repeat(MAX_AUTH_BODY_BYTES) } }));
    expect((await authFailure(discoverProtectedResource(server.url, undefined))).message).toContain("more than the 256 KB an OAuth answer may have");
  });

  test("secrets in the server URL's query are masked in messages", async () => {
    const server = documents(() => ({ [`${ROOT}/mcp?api_key=sekrit`]: { resource: "https://evil.example.com/mcp", authorization_servers: [AS] } }));
    const error = await authFailure(discoverProtectedResource(`${server.url}?api_key=sekrit`, undefined));
    expect(error.message).not.toContain("sekrit");
    expect(error.message).toContain(`${server.url}?api_key=***`);
  });
});

describe("options reach every request", () => {
  test("a server that never answers ends in the timeout's AuthError, or in the caller's abort", async () => {
    const server = documents(() => ({ [PATH_AWARE]: () => new Response(silence()) }));
    expect((await authFailure(discoverProtectedResource(server.url, undefined, { timeoutMs: 300 }))).message).toBe(`${server.origin}${PATH_AWARE} did not answer within 0.3 s`);
    const controller = new AbortController();
    const pending = discoverProtectedResource(server.url, undefined, { signal: controller.signal });
    controller.abort(new Error("cancelled by the user"));
    await expect(pending).rejects.toThrow("cancelled by the user");
  });

  test("the fetch handed in is the one used", async () => {
    const asked: string[] = [];
    const fetcher = async (input: string | URL) => {
      asked.push(String(input));
      return new Response("no", { status: 404 });
    };
    expect(await discoverProtectedResource("https://mcp.example.com/v1", undefined, { fetch: fetcher })).toBeUndefined();
    expect(asked).toEqual([`https://mcp.example.com${ROOT}/v1`, `https://mcp.example.com${ROOT}`]);
  });
});

describe("resourceCovers", () => {
  test("same origin, and the resource's path a prefix of the server's at a segment boundary", () => {
    expect(resourceCovers("https://h.example/mcp", "https://h.example/mcp")).toBe(true);
    expect(resourceCovers("https://h.example", "https://h.example/mcp")).toBe(true);
    expect(resourceCovers("https://h.example/", "https://h.example/v1/mcp")).toBe(true);
    expect(resourceCovers("https://h.example/v1", "https://h.example/v1/mcp")).toBe(true);
    expect(resourceCovers("https://h.example/mcp/", "https://h.example/mcp")).toBe(true);
    expect(resourceCovers("https://h.example/mcp", "https://h.example/mcp/?x=1")).toBe(true);
    expect(resourceCovers("HTTPS://H.EXAMPLE:443/mcp", "https://h.example/mcp")).toBe(true);
  });

  test("another origin, a sibling path, a longer path, a fragment or no URL does not cover", () => {
    expect(resourceCovers("https://evil.example/mcp", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("http://h.example/mcp", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("https://h.example:8443/mcp", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("https://h.example/mc", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("https://h.example/mcp/x", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("https://h.example/mcp#f", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("urn:mcp", "https://h.example/mcp")).toBe(false);
    expect(resourceCovers("mcp", "https://h.example/mcp")).toBe(false);
  });
});
