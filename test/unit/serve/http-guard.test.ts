/**
 * Who may reach `mcp serve --http`: the Host and Origin a request names, and its bearer token, as
 * pure decisions on a Request (the endpoint applies them to every request before anything else).
 */
import { expect, test } from "bun:test";
import { allowedAuthorities, refusal } from "../../../src/serve/http-guard.ts";
import { carriesToken } from "../../../src/serve/serve-token.ts";

const TOKEN = "b".repeat(64);
const request = (headers: Record<string, string>) => new Request("http://127.0.0.1:4000/mcp", { method: "POST", headers: { Authorization: `Bearer ${TOKEN}`, ...headers } });
const status = (headers: Record<string, string>, host = "127.0.0.1") => refusal(request(headers), allowedAuthorities(host, 4000), TOKEN)?.status ?? 200;

test("on loopback, the machine's loopback names pass; another Host or Origin is 403", () => {
  for (const host of ["127.0.0.1:4000", "localhost:4000", "[::1]:4000"]) expect(status({ Host: host })).toBe(200);
  expect(status({ Host: "evil.example:4000" })).toBe(403);
  expect(status({ Host: "127.0.0.1:4001" })).toBe(403);
  expect(status({ Host: "localhost:4000", Origin: "http://localhost:4000" })).toBe(200);
  expect(status({ Host: "localhost:4000", Origin: "http://evil.example" })).toBe(403);
  expect(status({ Host: "localhost:4000", Origin: "null" })).toBe(403);
});

test("listening on every address, any Host passes, but an Origin must name that same host", () => {
  expect(status({ Host: "devbox.lan:4000" }, "0.0.0.0")).toBe(200);
  expect(status({ Host: "devbox.lan:4000", Origin: "http://devbox.lan:4000" }, "0.0.0.0")).toBe(200);
  expect(status({ Host: "devbox.lan:4000", Origin: "http://evil.example" }, "0.0.0.0")).toBe(403);
});

test("the token must be sent whole, as a Bearer", () => {
  expect(carriesToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
  expect(carriesToken(`bearer ${TOKEN}`, TOKEN)).toBe(true);
  expect(carriesToken(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
  expect(carriesToken(`Basic ${TOKEN}`, TOKEN)).toBe(false);
  expect(carriesToken(null, TOKEN)).toBe(false);
  expect(refusal(new Request("http://127.0.0.1:4000/mcp", { headers: { Host: "127.0.0.1:4000" } }), allowedAuthorities("127.0.0.1", 4000), TOKEN)?.status).toBe(401);
});
