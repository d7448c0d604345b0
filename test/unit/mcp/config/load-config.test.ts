import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfigText, readConfigFile } from "../../../../src/mcp/config/load-config.ts";
import { expandVariables } from "../../../../src/mcp/config/env-expansion.ts";
import { environmentWithoutOwnSecrets } from "../../../../src/system/own-secrets.ts";
import { tempDir } from "../../../helpers/paths.ts";

const parse = (text: string, env: Record<string, string> = {}) => parseConfigText(text, "/cfg/mcp.json", "user", env);
const one = (entry: unknown, env: Record<string, string> = {}) => parse(JSON.stringify({ mcpServers: { s: entry } }), env).servers[0];

describe("config file", () => {
  test("no file means no servers and no warning", () => {
    expect(readConfigFile(join(tempDir(), "absent.json"), "user")).toEqual({ servers: [], warnings: [] });
  });

  test("a corrupt file gives one warning naming the file, line and column, and no servers", () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}');
    const loaded = readConfigFile(path, "user");
    expect(loaded.servers).toEqual([]);
    expect(loaded.warnings).toEqual([`${path} is not valid JSON: a property name in double quotes was expected at line 3, column 26; no MCP servers loaded from it`]);
  });

  test("JSON that is not an object, or mcpServers that is not an object, is one warning", () => {
    expect(parse("[1]").warnings[0]).toContain("the top level must be an object");
    expect(parse('{"mcpServers": []}').warnings[0]).toContain('"mcpServers" must be an object');
  });

  test("a Claude Code .mcp.json loads as it is", () => {
    const text = JSON.stringify({
      mcpServers: {
        fs: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: {} },
        api: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } },
      },
    });
    const { servers, warnings } = parse(text);
    expect(warnings).toEqual([]);
    expect(servers.map((s) => s.ok && s.config.type)).toEqual(["stdio", "http"]);
  });

  test("type is stdio by default, http when there is a url", () => {
    expect(one({ command: "x" })).toMatchObject({ ok: true, config: { type: "stdio", command: "x", args: [], env: {} } });
    expect(one({ url: "http://127.0.0.1:1/mcp" })).toMatchObject({ ok: true, config: { type: "http", headers: {} } });
  });

  test("per-server timeout is kept", () => {
    expect(one({ command: "x", timeout: 5000 })).toMatchObject({ ok: true, config: { timeout: 5000 } });
  });
});

describe("invalid entries fail only that server, with a reason that names the field", () => {
  const cases: [string, unknown, string][] = [
    ["both command and url", { command: "x", url: "http://a" }, 'both "command" and "url"'],
    ["an unknown type", { type: "carrier-pigeon", command: "x" }, 'unknown "type" "carrier-pigeon"'],
    ["the deprecated sse type", { type: "sse", url: "http://a" }, "deprecated HTTP+SSE"],
    ["an empty command", { command: "" }, '"command" is empty'],
    ["args that are not strings", { command: "x", args: [1] }, '"args" must be a string'],
    ["env values that are not strings", { command: "x", env: { A: 1 } }, '"env" must be a string'],
    ["a bad timeout", { command: "x", timeout: -1 }, '"timeout" must be at least 1 ms'],
    ["a url that is not a URL", { url: "not a url" }, '"url" is not a valid URL'],
    ["an entry that is not an object", "npx server", "the entry must be an object"],
  ];
  for (const [what, entry, message] of cases) {
    test(what, () => {
      const result = parse(JSON.stringify({ mcpServers: { bad: entry, good: { command: "ok" } } }));
      expect(result.servers[0]).toMatchObject({ name: "bad", ok: false, error: expect.stringContaining(message) });
      expect(result.servers[1]).toMatchObject({ name: "good", ok: true });
    });
  }

  test("a name that sanitizes to nothing", () => {
    expect(parse(JSON.stringify({ mcpServers: { "!!!": { command: "x" } } })).servers[0]).toMatchObject({
      ok: false,
      error: expect.stringContaining("has no letters or digits"),
    });
  });

  test("${UNSET} without a default names the variable and the field", () => {
    expect(one({ command: "x", args: ["--token", "${NOPE_UNSET}"] })).toMatchObject({
      ok: false,
      error: '"args[1]": environment variable NOPE_UNSET is not set (set it, or write ${NOPE_UNSET:-default})',
    });
  });
});

describe("${VAR} expansion", () => {
  test("expands in command, args, env, url and headers", () => {
    const env = { BIN: "/usr/bin/srv", TOKEN: "t0k", HOST: "127.0.0.1" };
    expect(one({ command: "${BIN}", args: ["--t=${TOKEN}"], env: { K: "${TOKEN}" } }, env)).toMatchObject({
      config: { command: "/usr/bin/srv", args: ["--t=t0k"], env: { K: "t0k" } },
    });
    expect(one({ url: "http://${HOST}:1/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }, env)).toMatchObject({
      config: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer t0k" } },
    });
  });

  test("${VAR:-default} uses the default when unset or empty", () => {
    expect(expandVariables("${A:-x}-${B:-y}", { B: "" })).toBe("x-y");
    expect(expandVariables("${A:-x}", { A: "set" })).toBe("set");
  });
});

describe("server environment", () => {
  test("cat-code's own secrets are withheld unless the entry names them", () => {
    const parent = { PATH: "/bin", ANTHROPIC_API_KEY: "sk-secret", ANTHROPIC_AUTH_TOKEN: "tok" };
    expect(environmentWithoutOwnSecrets({}, parent)).toEqual({ PATH: "/bin" });
    expect(environmentWithoutOwnSecrets({ ANTHROPIC_API_KEY: "sk-secret" }, parent)).toEqual({ PATH: "/bin", ANTHROPIC_API_KEY: "sk-secret" });
  });
});
