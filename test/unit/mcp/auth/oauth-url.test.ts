import { describe, expect, test } from "bun:test";
import { checkOAuthUrl, isLoopbackHost } from "../../../../src/mcp/auth/oauth-url.ts";

describe("isLoopbackHost", () => {
  test("localhost, *.localhost, 127.0.0.0/8 and [::1] are this machine", () => {
    for (const host of ["localhost", "LOCALHOST", "localhost.", "app.localhost", "127.0.0.1", "127.1.2.3", "[::1]"]) expect(isLoopbackHost(host)).toBe(true);
  });

  test("anything else is not: look-alikes, private addresses, the unspecified address", () => {
    for (const host of ["localhost.example.com", "mylocalhost", "127.0.0.1.nip.io", "128.0.0.1", "10.0.0.1", "0.0.0.0", "[::]", "[::2]", "example.com"]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe("checkOAuthUrl", () => {
  test("https: anywhere and http: on this machine pass, as URLs", () => {
    for (const text of ["https://auth.example.com/t", "http://127.0.0.1:8080/as", "http://localhost:1/", "http://[::1]:9/x", "http://2130706433/"]) {
      expect("url" in checkOAuthUrl(text)).toBe(true);
    }
  });

  test("the rest is refused with its reason", () => {
    expect(checkOAuthUrl("http://auth.example.com")).toEqual({ problem: "uses plain http: on a host that is not this machine; OAuth needs https: there" });
    expect(checkOAuthUrl("javascript:alert(1)")).toEqual({ problem: "uses javascript:, not https:" });
    expect(checkOAuthUrl("/token")).toEqual({ problem: "is not an absolute URL" });
    expect(checkOAuthUrl("https://user:pw@auth.example.com")).toEqual({ problem: "carries a user name or password" });
    expect(checkOAuthUrl("https://auth.example.com/#x")).toEqual({ problem: "has a fragment" });
  });
});
