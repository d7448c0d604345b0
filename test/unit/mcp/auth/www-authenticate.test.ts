import { describe, expect, test } from "bun:test";
import { bearerChallenge, parseWwwAuthenticate } from "../../../../src/mcp/auth/www-authenticate.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const { serve } = scriptedServers();

describe("parseWwwAuthenticate", () => {
  test("a Bearer challenge of the MCP spec: resource_metadata, scope, error, names and scheme in lower case", () => {
    const value = 'BEARER Resource_Metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", SCOPE="files:read files:write", error=invalid_token';
    expect(parseWwwAuthenticate(value)).toEqual([
      {
        scheme: "bearer",
        params: {
          resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
          scope: "files:read files:write",
          error: "invalid_token",
        },
      },
    ]);
  });

  test("several challenges in one value, with commas and spaces inside quoted strings", () => {
    const value = 'Basic realm="a, b = c", Bearer realm="mcp", scope="x y",Digest realm="d", nonce="1,2"';
    expect(parseWwwAuthenticate(value)).toEqual([
      { scheme: "basic", params: { realm: "a, b = c" } },
      { scheme: "bearer", params: { realm: "mcp", scope: "x y" } },
      { scheme: "digest", params: { realm: "d", nonce: "1,2" } },
    ]);
  });

  test("challenges across several values, in order", () => {
    expect(parseWwwAuthenticate(['Basic realm="proxy"', 'Bearer scope="a"', "Negotiate"])).toEqual([
      { scheme: "basic", params: { realm: "proxy" } },
      { scheme: "bearer", params: { scope: "a" } },
      { scheme: "negotiate", params: {} },
    ]);
  });

  test("backslash escapes in quoted strings are undone; an escaped quote does not end the string", () => {
    const [challenge] = parseWwwAuthenticate('Bearer error_description="say \\"hi\\", then a \\\\ and \\x", error="e"');
    expect(challenge?.params).toEqual({ error_description: 'say "hi", then a \\ and x', error: "e" });
  });

  test("token68 credentials, alone or followed by another challenge", () => {
    expect(parseWwwAuthenticate("Negotiate YIIB+g/x==, Bearer realm=r, Basic dXNlcjpwYXNz")).toEqual([
      { scheme: "negotiate", params: {}, token68: "YIIB+g/x==" },
      { scheme: "bearer", params: { realm: "r" } },
      { scheme: "basic", params: {}, token68: "dXNlcjpwYXNz" },
    ]);
  });

  test("white space around '=' and empty list elements are allowed (RFC 9110 BWS and #rule)", () => {
    expect(parseWwwAuthenticate(' , Bearer  scope = "a" ,, error =x , ')).toEqual([{ scheme: "bearer", params: { scope: "a", error: "x" } }]);
  });

  test("an unquoted URL value is read whole, not cut at ':'", () => {
    const [challenge] = parseWwwAuthenticate("Bearer resource_metadata=https://h.example/.well-known/oauth-protected-resource, scope=a");
    expect(challenge?.params).toEqual({ resource_metadata: "https://h.example/.well-known/oauth-protected-resource", scope: "a" });
  });

  test("the first of a repeated parameter wins; '__proto__' and 'constructor' are plain names", () => {
    const [challenge] = parseWwwAuthenticate('Bearer scope="first", SCOPE="second", __proto__="p", constructor="c"');
    expect(challenge?.params.scope).toBe("first");
    expect(challenge?.params["__proto__"]).toBe("p");
    expect(challenge?.params["constructor"]).toBe("c");
  });

  test("an unclosed quote runs to the end of its value only: the next value is still read", () => {
    expect(parseWwwAuthenticate(['Bearer scope="a b, Basic realm=x', 'Basic realm="y"'])).toEqual([
      { scheme: "bearer", params: { scope: "a b, Basic realm=x" } },
      { scheme: "basic", params: { realm: "y" } },
    ]);
  });

  test("garbage between challenges is skipped up to the next comma", () => {
    expect(parseWwwAuthenticate('Bearer scope="a" @@@ "x,y" junk, Basic realm="r"')).toEqual([
      { scheme: "bearer", params: { scope: "a" } },
      { scheme: "basic", params: { realm: "r" } },
    ]);
    expect(parseWwwAuthenticate('=== "x", Bearer error="e"')).toEqual([{ scheme: "bearer", params: { error: "e" } }]);
  });

  test("at most 8 KB is read, across all values", () => {
    const filler = `Basic realm="${"x".repeat(8 * 1024)}"`;
    expect(parseWwwAuthenticate(`${filler}, Bearer scope="late"`).map((c) => c.scheme)).toEqual(["basic"]);
    expect(parseWwwAuthenticate([filler, 'Bearer scope="late"']).map((c) => c.scheme)).toEqual(["basic"]);
    expect(parseWwwAuthenticate(['Bearer scope="early"', filler]).map((c) => c.scheme)).toEqual(["bearer", "basic"]);
  });

  test("bad input never throws and always ends: empty, quotes, backslashes, 10,000 random strings", () => {
    for (const value of ["", " ", ",", '"', "\\", '"\\', "=", "==,==", 'Bearer "', "Bearer =", "Bearer a=", 'Bearer a="\\', "\u0000\uffff\ud800"]) {
      expect(() => parseWwwAuthenticate(value)).not.toThrow();
    }
    expect(parseWwwAuthenticate([])).toEqual([]);
    expect(parseWwwAuthenticate([undefined as unknown as string, 'Bearer scope="s"'])).toEqual([{ scheme: "bearer", params: { scope: "s" } }]);
    const alphabet = 'Bb ear=,"\\\t x1/+';
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 10_000; i++) {
      let value = "";
      const length = Math.floor(random() * 40);
      for (let j = 0; j < length; j++) value += alphabet[Math.floor(random() * alphabet.length)];
      const challenges = parseWwwAuthenticate(value);
      for (const challenge of challenges) expect(challenge.scheme).toMatch(/^[a-z0-9!#$%&'*+\-.^_`|~]+$/);
    }
  });
});

describe("bearerChallenge", () => {
  test("the Bearer challenge among others, scope split on spaces", () => {
    const headers = new Headers({ "WWW-Authenticate": 'Basic realm="p", Bearer error="insufficient_scope", scope="a  b", error_description="need b", resource_metadata="https://h/x"' });
    expect(bearerChallenge(headers)).toEqual({ resourceMetadata: "https://h/x", scope: ["a", "b"], error: "insufficient_scope", errorDescription: "need b" });
  });

  test("undefined without WWW-Authenticate or without a Bearer challenge; empty fields are left out", () => {
    expect(bearerChallenge(new Headers())).toBeUndefined();
    expect(bearerChallenge(new Headers({ "WWW-Authenticate": 'Basic realm="x"' }))).toBeUndefined();
    expect(bearerChallenge(new Headers({ "WWW-Authenticate": 'Bearer scope="", resource_metadata=""' }))).toEqual({});
  });

  test("reads every WWW-Authenticate header of a real HTTP response", async () => {
    const server = serve(() => {
      const headers = new Headers();
      headers.append("WWW-Authenticate", 'Basic realm="proxy, inc"');
      headers.append("WWW-Authenticate", 'Bearer resource_metadata="http://127.0.0.1:9/prm", scope="mcp:basic"');
      return new Response("no", { status: 401, headers });
    });
    const response = await fetch(server.url, { method: "POST", body: "{}" });
    expect(bearerChallenge(response.headers)).toEqual({ resourceMetadata: "http://127.0.0.1:9/prm", scope: ["mcp:basic"] });
  });
});
