import { expect, test } from "bun:test";
import { parseKeepAlive, withKeepAlive } from "../../../../src/cli/mcp/keep-alive-choice.ts";
import { keepAliveSeconds } from "../../../../src/keeper/keep-alive-setting.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";

/** How long the keeper keeps a command's server: --keep-alive, the entry, CAT_CODE_KEEP_ALIVE; ad-hoc servers not unless asked. */
function entry(scope: ServerEntry["scope"], keepAlive?: number): ServerEntry {
  return { name: "s", scope, source: "x", ok: true, config: { type: "stdio", command: "srv", args: [], env: {}, ...(keepAlive === undefined ? {} : { keepAlive }) } };
}

test("an ad-hoc server is kept only when the flag or CAT_CODE_KEEP_ALIVE asks; a named one gets the keeper's default", () => {
  expect(keepAliveSeconds(entry("ad-hoc"), undefined, [{}])).toBe(0);
  expect(keepAliveSeconds(entry("ad-hoc"), 30, [{}])).toBe(30);
  expect(keepAliveSeconds(entry("ad-hoc"), undefined, [{ CAT_CODE_KEEP_ALIVE: "45" }])).toBe(45);
  expect(keepAliveSeconds(entry("ad-hoc"), undefined, [{ CAT_CODE_KEEP_ALIVE: "soon" }])).toBe(0);
  expect(keepAliveSeconds(entry("user"), undefined, [{}])).toBeUndefined();
});

test("the flag wins over the entry, the entry over the environment", () => {
  expect(keepAliveSeconds(entry("user", 60), 0, [{ CAT_CODE_KEEP_ALIVE: "5" }])).toBe(0);
  expect(keepAliveSeconds(entry("user", 60), undefined, [{ CAT_CODE_KEEP_ALIVE: "5" }])).toBe(60);
  expect(keepAliveSeconds(entry("project"), undefined, [{ CAT_CODE_KEEP_ALIVE: "5" }])).toBe(5);
});

test("the keeper's view: the command's CAT_CODE_KEEP_ALIVE first, then its own; not a whole number counts as unset", () => {
  expect(keepAliveSeconds(entry("user"), undefined, [{ CAT_CODE_KEEP_ALIVE: "7" }, { CAT_CODE_KEEP_ALIVE: "9" }])).toBe(7);
  expect(keepAliveSeconds(entry("user"), undefined, [{ CAT_CODE_KEEP_ALIVE: "soon" }, { CAT_CODE_KEEP_ALIVE: "9" }])).toBe(9);
  expect(keepAliveSeconds(entry("user", 60), undefined, [{ CAT_CODE_KEEP_ALIVE: "7" }, {}])).toBe(60);
});

test("the chosen keep-alive is written into the entry the keeper gets; nothing chosen, nothing changed", () => {
  const named = entry("user");
  expect(withKeepAlive(named, undefined)).toBe(named);
  expect(withKeepAlive(named, 30)).toMatchObject({ config: { keepAlive: 30 } });
  expect(named.ok && named.config.keepAlive).toBeUndefined();
});

test("--keep-alive takes whole seconds, 0 included; anything else is a usage error naming it", () => {
  expect(parseKeepAlive(undefined)).toBeUndefined();
  expect(parseKeepAlive("0")).toBe(0);
  expect(parseKeepAlive("120")).toBe(120);
  for (const bad of ["", "-1", "1.5", "10s", "99999999999"]) {
    expect(() => parseKeepAlive(bad)).toThrow(/^--keep-alive must be/);
    expect(() => parseKeepAlive(bad)).toThrow(bad === "" ? /got ''/ : new RegExp(`got '${bad.replace(".", "\\.")}'`));
  }
});
