import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { createCompleter } from "../../../src/repl/completion.ts";
import { replSetEnabled } from "../../../src/repl/mcp-disable-command.ts";
import { RemoteCompletions } from "../../../src/repl/remote-completion.ts";
import { slashCompletion } from "../../../src/repl/slash-completion.ts";
import { loadSettings } from "../../../src/settings/load-settings.ts";
import { initializeHandler, MemoryTransport } from "../../helpers/memory-transport.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-disable-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const http = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "http", url: `https://${name}.example/mcp`, headers: {} } });

async function session() {
  const pool = new ServerPool([http("tracker"), http("docs")], {
    createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [{ name: "search" }] }) }),
  });
  const registry = new ToolRegistry();
  pool.registerInto(registry);
  await pool.connectAll();
  const printed: string[] = [];
  const settingsFile = join(dir, ".cat-code", "settings.json");
  const context = { pool, print: (line: string) => printed.push(line), cancellable: <T>(work: (signal: AbortSignal) => Promise<T>) => work(new AbortController().signal), settingsFile, onToolsChanged: () => {} };
  return { pool, registry, printed, settingsFile, context };
}

test("/mcp disable keeps the choice in the project's settings.json, which the next start reads; /mcp enable takes it out", async () => {
  const { pool, registry, printed, settingsFile, context } = await session();
  mkdirSync(join(dir, ".cat-code"));
  writeFileSync(settingsFile, '{\n  // the team\'s\n  "model": "claude-sonnet-4-5"\n}\n');
  try {
    await replSetEnabled("disable", "tracker", context);
    expect(printed.at(-1)).toBe(`MCP server 'tracker' disabled: its 1 tool(s) are out of the conversation; kept in ${settingsFile} (disabledMcpServers). /mcp enable tracker turns it back on.`);
    expect(registry.list().map((tool) => tool.name)).toEqual(["mcp__docs__search"]);
    expect(readFileSync(settingsFile, "utf8")).toContain("// the team's");
    expect(loadSettings({ cwd: dir, env: { CAT_CODE_HOME: join(dir, "home") } }).settings.disabledMcpServers).toEqual(["tracker"]);

    await replSetEnabled("disable", "tracker", context);
    expect(printed.at(-1)).toBe("MCP server 'tracker' is disabled already.");

    await replSetEnabled("enable", "tracker", context);
    expect(printed.at(-1)).toBe(`MCP server 'tracker' enabled: 1 tool(s). (taken out of disabledMcpServers in ${settingsFile})`);
    expect(registry.list().map((tool) => tool.name).sort()).toEqual(["mcp__docs__search", "mcp__tracker__search"]);
    expect(loadSettings({ cwd: dir, env: { CAT_CODE_HOME: join(dir, "home") } }).settings.disabledMcpServers).toEqual([]);
  } finally {
    await pool.closeAll();
  }
});

test("a name that is not a server, or none, says what to type", async () => {
  const { pool, printed, context } = await session();
  try {
    await replSetEnabled("disable", "trackr", context);
    expect(printed.at(-1)).toBe("No MCP server 'trackr'. Did you mean tracker? /mcp lists them.");
    await replSetEnabled("enable", "", context);
    expect(printed.at(-1)).toBe("Usage: /mcp enable <server> (one of: tracker, docs)");
  } finally {
    await pool.closeAll();
  }
});

test("a settings file that cannot be written leaves the server disabled for this session, and says so", async () => {
  const { pool, printed, context } = await session();
  writeFileSync(join(dir, ".cat-code"), "a file where the folder should be");
  try {
    await replSetEnabled("disable", "docs", context);
    expect(printed.at(-1)).toStartWith("MCP server 'docs' disabled: its 1 tool(s) are out of the conversation; for this session only: ");
    expect(pool.status()[1]).toMatchObject({ state: "disabled" });
  } finally {
    await pool.closeAll();
  }
});

test("Tab after /mcp disable offers the servers not disabled; after /mcp enable, the disabled ones", async () => {
  const pool = { status: () => [{ name: "tracker", state: "disabled" }, { name: "docs", state: "connected" }, { name: "dead", state: "failed" }] as never, serversOffering: () => [] };
  const complete = createCompleter([slashCompletion({ pool, remote: new RemoteCompletions() })]);
  expect(await complete("/mcp dis")).toEqual([["disable"], "dis"]);
  expect(await complete("/mcp disable ")).toEqual([["docs", "dead"], ""]);
  expect(await complete("/mcp enable ")).toEqual([["tracker"], ""]);
  expect(await complete("/mcp enable t")).toEqual([["tracker"], "t"]);
});

test("/mcp enable of a server its mcp.json entry disables starts it for this session, and says the entry stays as written", async () => {
  const entry = { ...http("legacy"), config: { type: "http" as const, url: "https://legacy.example/mcp", headers: {}, disabled: true } };
  const pool = new ServerPool([entry], {
    createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [{ name: "search" }] }) }),
  });
  const printed: string[] = [];
  try {
    await pool.connectAll();
    expect(pool.status()[0]).toMatchObject({ state: "disabled" });
    const settingsFile = join(dir, ".cat-code", "settings.json");
    await replSetEnabled("enable", "legacy", { pool, print: (line) => printed.push(line), cancellable: (work) => work(new AbortController().signal), settingsFile, onToolsChanged: () => {} });
    expect(printed.at(-1)).toBe('MCP server \'legacy\' enabled: 1 tool(s). (for this session: its mcp.json entry says "disabled": true)');
  } finally {
    await pool.closeAll();
  }
});
