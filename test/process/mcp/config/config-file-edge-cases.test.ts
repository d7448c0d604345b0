import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_CONFIG_BYTES, readConfigText } from "../../../../src/config/config-file-text.ts";
import { addServer, removeServer } from "../../../../src/mcp/config/config-writer.ts";
import { readConfigFile } from "../../../../src/mcp/config/load-config.ts";
import { run, runBinary } from "../../../helpers/binary.ts";
import { refusal } from "../../../helpers/refusal.ts";
import { ECHO_SERVER, tempDir } from "../../../helpers/paths.ts";


describe("what a config file may be", () => {
  test("a UTF-8 byte-order mark is accepted, and a write keeps it", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, `\uFEFF${JSON.stringify({ mcpServers: { echo: { command: ECHO_SERVER } } })}`);
    const loaded = readConfigFile(path, "user");
    expect(loaded.warnings).toEqual([]);
    expect(loaded.servers.map((s) => [s.name, s.ok])).toEqual([["echo", true]]);
    await addServer(path, "two", { command: "x" });
    const text = readFileSync(path, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(Object.keys(JSON.parse(text.slice(1)).mcpServers)).toEqual(["echo", "two"]);
  });

  const notFiles: [what: string, make: () => string, says: string][] = [
    ["a folder", () => { const p = join(tempDir(), "mcp.json"); mkdirSync(p); return p; }, "it is a folder, not a regular file"],
    ["a FIFO no one writes to", () => { const p = join(tempDir(), "mcp.json"); Bun.spawnSync(["mkfifo", p]); return p; }, "it is a FIFO, not a regular file"],
    ["/dev/zero", () => "/dev/zero", "it is a device, not a regular file"],
    ["a symlink to /dev/zero", () => { const p = join(tempDir(), "mcp.json"); symlinkSync("/dev/zero", p); return p; }, "it is a device, not a regular file"],
  ];
  for (const [what, make, says] of notFiles) {
    test(`${what} as mcp.json: one line naming the file, at once, no servers; the CLI still runs`, async () => {
      const path = make();
      expect(readConfigFile(path, "user")).toEqual({ servers: [], warnings: [`cannot read ${path}: ${says}; no MCP servers loaded from it`] });
      const started = Date.now();
      const cli = await runBinary(["mcp", "list", "--mcp-config", path], { timeoutMs: 20_000 });
      // The bound only catches a hang: a FIFO or /dev/zero read would never end.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(cli.exitCode).toBe(0);
      expect(cli.stderr.split("\n")[0]).toBe(`[warn] cannot read ${path}: ${says}; no MCP servers loaded from it`);
      expect(cli.stderr).not.toContain("    at ");
    });
  }

  test("a file larger than the cap is refused without reading it all", () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, `{"mcpServers": {}, "pad": "${"x".repeat(MAX_CONFIG_BYTES)}"}`);
    expect(() => readConfigText(path)).toThrow(`cannot read ${path}: it is larger than ${MAX_CONFIG_BYTES} bytes`);
    expect(readConfigFile(path, "user").warnings).toEqual([`cannot read ${path}: it is larger than ${MAX_CONFIG_BYTES} bytes; no MCP servers loaded from it`]);
  });

  test("a write into a folder where mcp.json is a FIFO is refused at once, and nothing is created", async () => {
    const dir = tempDir();
    const path = join(dir, "mcp.json");
    Bun.spawnSync(["mkfifo", path]);
    const error = await refusal(addServer(path, "echo", { command: "x" }));
    expect([error.kind, error.message]).toEqual(["unreadable-file", `cannot read ${path}: it is a FIFO, not a regular file`]);
    expect(readdirSync(dir)).toEqual(["mcp.json"]);
  });
});

test("mcp remove and mcp add --scope project with a FIFO as .mcp.json: exit 2 at once, one line naming it", async () => {
  const project = tempDir();
  const path = join(project, ".mcp.json");
  Bun.spawnSync(["mkfifo", path]);
  const cli = (...args: string[]) => runBinary(["mcp", ...args], { cwd: project, env: { CAT_CODE_HOME: tempDir() }, timeoutMs: 20_000 });
  for (const result of [await cli("remove", "echo"), await cli("add", "echo", "--scope", "project", "--", "x")]) {
    expect([result.exitCode, result.stderr.trim().split("\n").length]).toEqual([2, 1]);
    expect(result.stderr).toContain(`cannot read ${path}: it is a FIFO, not a regular file`);
  }
});

describe("names that are special in JavaScript objects", () => {
  test("mcp add __proto__ is refused, and nothing is written", async () => {
    const home = tempDir();
    const cli = await runBinary(["mcp", "add", "__proto__", "--", ECHO_SERVER], { env: { CAT_CODE_HOME: home } });
    expect([cli.exitCode, cli.stderr.trim()]).toEqual([2, `error: the server name "__proto__" is reserved; choose another; nothing was written`]);
    expect(readdirSync(home)).toEqual([]);
  });

  test('a "__proto__" entry in a file is reported as invalid, not lost', () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, '{"mcpServers": {"__proto__": {"command": "x"}, "echo": {"command": "y"}}}');
    const loaded = readConfigFile(path, "user");
    expect(loaded.servers.map((s) => [s.name, s.ok ? "ok" : s.error])).toEqual([
      ["__proto__", 'the name "__proto__" is reserved; rename the entry'],
      ["echo", "ok"],
    ]);
  });

  test("constructor, toString and hasOwnProperty work fully: add, list, call, approve, remove", async () => {
    const home = tempDir();
    const project = tempDir();
    const cli = (...args: string[]) => runBinary(["mcp", ...args], { cwd: project, env: { CAT_CODE_HOME: home } });
    expect((await cli("add", "constructor", "--", ECHO_SERVER)).exitCode).toBe(0);
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { toString: { command: ECHO_SERVER }, hasOwnProperty: { command: ECHO_SERVER } } }));
    const waiting = await cli("list");
    expect(waiting.stdout).toContain("constructor     CONNECTED       1 tool(s)");
    expect(waiting.stdout).toContain("toString        NEEDS-APPROVAL");
    expect(waiting.stdout).toContain("hasOwnProperty  NEEDS-APPROVAL");
    expect((await cli("approve", "toString", "hasOwnProperty")).exitCode).toBe(0);
    const approved = await cli("list");
    expect(approved.stdout).toContain("toString        CONNECTED  1 tool(s)");
    expect(approved.stdout).toContain("hasOwnProperty  CONNECTED  1 tool(s)");
    expect(approved.stdout).toContain("constructor     CONNECTED  1 tool(s)");
    expect((await cli("call", "constructor", "echo", "text=hi")).stdout).toBe("hi\n");
    expect((await cli("remove", "constructor")).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "mcp.json"), "utf8"))).toEqual({ mcpServers: {} });
  });
});

describe("remove with a name written twice", () => {
  test("is refused, naming the duplicates; the file is unchanged", async () => {
    const path = join(tempDir(), "mcp.json");
    const text = '{\n  "mcpServers": {\n    "echo": {"command": "first"},\n    "echo": {"command": "second"}\n  }\n}\n';
    writeFileSync(path, text);
    const error = await refusal(removeServer(path, "echo"));
    expect([error.kind, error.message]).toEqual([
      "duplicate-name",
      `'echo' is written 2 times in "mcpServers" of ${path} (the last one is in effect); remove the copies by hand; nothing was written`,
    ]);
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});

describe("a symlinked config file", () => {
  test("a link to a file is written through; the link stays", async () => {
    const dir = tempDir();
    const real = join(dir, "real.json");
    writeFileSync(real, '{"mcpServers": {}}\n');
    const link = join(dir, "mcp.json");
    symlinkSync(real, link);
    await addServer(link, "echo", { command: "x" });
    expect(JSON.parse(readFileSync(real, "utf8")).mcpServers).toEqual({ echo: { command: "x" } });
    const ls = await run(["ls", "-l", link]);
    expect(ls.stdout).toContain(`-> ${real}`);
  });

  test("a dangling link is refused, not replaced by a file", async () => {
    const dir = tempDir();
    const link = join(dir, "mcp.json");
    const missing = join(dir, "dotfiles", "mcp.json");
    symlinkSync(missing, link);
    const error = await refusal(addServer(link, "echo", { command: "x" }));
    expect([error.kind, error.message]).toEqual([
      "unwritable-file",
      `${link} is a symlink to ${missing}, which does not exist; create that file or remove the link; nothing was written`,
    ]);
    const ls = await run(["ls", "-l", link]);
    expect(ls.stdout).toContain(`-> ${missing}`);
    expect(readdirSync(dir)).toEqual(["mcp.json"]);
  });
});
