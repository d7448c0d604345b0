import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../../../src/config/config-error.ts";
import { addServer, removeServer } from "../../../../src/mcp/config/config-writer.ts";
import { readConfigFile } from "../../../../src/mcp/config/load-config.ts";
import { updateFile } from "../../../../src/config/locked-file.ts";
import { refusal } from "../../../helpers/refusal.ts";
import { tempDir } from "../../../helpers/paths.ts";


describe("addServer", () => {
  test("creates the folder and the file, with owner-only permissions when asked", async () => {
    const path = join(tempDir(), "deep", "er", "mcp.json");
    await addServer(path, "echo", { command: "./echo-server.sh" }, { mode: 0o600 });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ mcpServers: { echo: { command: "./echo-server.sh" } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("an existing file keeps its permissions, its other fields and its other entries", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{"theme": "dark", "mcpServers": {"a": {"command": "x"}}}', { mode: 0o640 });
    await addServer(path, "b", { url: "http://127.0.0.1:1/mcp" });
    expect(readFileSync(path, "utf8")).toBe('{"theme": "dark", "mcpServers": {"a": {"command": "x"}, "b": {"url":"http://127.0.0.1:1/mcp"}}}');
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  test("leaves no temporary or lock file behind", async () => {
    const dir = tempDir();
    await addServer(join(dir, "mcp.json"), "a", { command: "x" });
    await addServer(join(dir, "mcp.json"), "b", { command: "y" });
    expect(readdirSync(dir)).toEqual(["mcp.json"]);
  });

  test("a symlinked config is written through to its target; the link stays", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "dotfiles"));
    writeFileSync(join(dir, "dotfiles", "mcp.json"), "{}");
    symlinkSync(join(dir, "dotfiles", "mcp.json"), join(dir, "mcp.json"));
    await addServer(join(dir, "mcp.json"), "a", { command: "x" });
    expect(readFileSync(join(dir, "dotfiles", "mcp.json"), "utf8")).toContain('"a"');
    expect(readdirSync(dir).sort()).toEqual(["dotfiles", "mcp.json"]);
    expect(statSync(join(dir, "mcp.json")).isFile()).toBe(true);
  });

  const refusals: [string, string, unknown, string, string][] = [
    ["a name with a space", "my server", { command: "x" }, "invalid-name", "invalid server name"],
    ["a name with a dot", "a.b", { command: "x" }, "invalid-name", "letters, digits, '_' and '-'"],
    ["an empty command", "a", { command: "" }, "invalid-entry", '"command" is empty'],
    ["command and url at once", "a", { command: "x", url: "http://h" }, "invalid-entry", 'both "command" and "url"'],
    ["a bad url", "a", { url: "not a url" }, "invalid-entry", "not a valid URL"],
    ["a bad timeout", "a", { command: "x", timeout: "soon" }, "invalid-entry", '"timeout" must be a number'],
    ["a name that exists", "keep", { command: "x" }, "duplicate-name", "already exists"],
  ];
  for (const [what, name, raw, code, message] of refusals) {
    test(`${what} is refused and the file stays byte for byte`, async () => {
      const path = join(tempDir(), "mcp.json");
      const original = '{ "mcpServers": { "keep": {"command": "k"} } }';
      writeFileSync(path, original);
      const error = await refusal(addServer(path, name, raw));
      expect(error.kind).toBe(code as ConfigError["kind"]);
      expect(error.message).toContain(message);
      expect(readFileSync(path, "utf8")).toBe(original);
    });
  }

  test("a corrupt file is refused with line and column, and left as it is", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}');
    const error = await refusal(addServer(path, "b", { command: "y" }));
    expect(error.kind).toBe("corrupt-file");
    expect(error.message).toContain(`${path}: not valid JSON: a property name in double quotes was expected at line 3, column 26`);
    expect(readFileSync(path, "utf8")).toContain('"x",}');
  });

  test("${VAR}s need not be set when the entry is added, and are written unexpanded", async () => {
    const path = join(tempDir(), "mcp.json");
    const raw = { url: "${NOT_SET_ANYWHERE_API_URL}", headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE_TOKEN}" } };
    await addServer(path, "api", raw);
    expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.api).toEqual(raw);
  });
});

describe("removeServer", () => {
  test("removes one entry; the rest of the file is unchanged", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "b": {"command": "y"}\n  },\n  "other": 1\n}\n');
    await removeServer(path, "a");
    expect(readFileSync(path, "utf8")).toBe('{\n  "mcpServers": {\n    "b": {"command": "y"}\n  },\n  "other": 1\n}\n');
  });

  test("a name that is not there is refused with the names that are", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}');
    const error = await refusal(removeServer(path, "c"));
    expect(error.kind).toBe("unknown-name");
    expect(error.message).toContain("servers there: a, b");
  });
});

describe("the lock", () => {
  test("a lock left by a dead process is broken", async () => {
    const path = join(tempDir(), "mcp.json");
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(`${path}.lock`, `${dead} ${Date.now()} x`);
    await addServer(path, "a", { command: "x" });
    expect(readConfigFile(path, "user").servers.map((s) => s.name)).toEqual(["a"]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test("a live lock is waited for, then given up on with a message that names the lock file", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(`${path}.lock`, `${process.pid} ${Date.now()} held`);
    const started = Date.now();
    const error = await refusal(updateFile(path, () => "{}", { lockTimeoutMs: 300 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(error.kind).toBe("locked");
    expect(error.message).toContain(`${path}.lock`);
    expect(existsSync(path)).toBe(false);
    // The other holder's lock is not ours to remove.
    expect(readFileSync(`${path}.lock`, "utf8")).toContain("held");
  });

  test("an edit that throws writes nothing and releases the lock", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, "{}");
    await expect(updateFile(path, () => { throw new Error("no"); })).rejects.toThrow("no");
    expect(readFileSync(path, "utf8")).toBe("{}");
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
